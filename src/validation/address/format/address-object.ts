import type { AddressTable } from '../dataset/table.ts';
import { NO_COORDINATE } from '../dataset/columns.ts';
import { type AddressParts, fullAddress, readParts, streetLine, subPremises } from './address-parts.ts';
import { encodeAddressId } from './address-id.ts';

export interface AddressObjectOptions {
  readonly salt: number;
  readonly gps: boolean;
  readonly extended: boolean;
  /** A census year was asked for (verification `census=`, metadata by default): Meshblock, SA1 and SA2 ids. */
  readonly census: boolean;
}

/**
 * The documented address object of verification (under `address`) and metadata (flat):
 * every documented field present, null where empty; coordinates only with `gps=1`,
 * census ids (`meshblock`, `sa1_id`, `sa2_id`) only for a census year, G-NAF extras only with
 * `extended=1`. Census and parcel-locker data are not held: null.
 */
export function addressObject(
  table: AddressTable,
  row: number,
  options: AddressObjectOptions,
): Record<string, string | null> {
  const p = readParts(table, row);
  const canonical = table.canonical(row);
  const sub = subPremises(p);
  const line = streetLine(p);
  const object: Record<string, string | null> = {
    id: encodeAddressId(options.salt, row),
    full_address: fullAddress(p),
    canonical_address: fullAddress(readParts(table, canonical)),
    canonical_address_id: encodeAddressId(options.salt, canonical),
    address_line_1: sub.length > 0 ? sub.join(', ') : line,
    address_line_2: sub.length > 0 ? line : null,
    address_line_combined: [...sub, line].join(', '),
    locality_name: p.locality,
    state_territory: p.state,
    postcode: p.postcode,
    ...components(p),
    supplementary: null,
    parcel_locker_type: null,
    parcel_locker_identifier: null,
  };
  if (options.gps) Object.assign(object, coordinates(table, row));
  if (options.census) Object.assign(object, { meshblock: null, sa1_id: null, sa2_id: null });
  if (options.extended)
    Object.assign(object, {
      lga_name: null,
      lga_type_code: null,
      gnaf_id: table.pidOf(row),
      legal_parcel_id: p.legalParcel,
    });
  return object;
}

function components(p: AddressParts): Record<string, string | null> {
  return {
    box_identifier: p.boxNumber,
    box_type: p.boxType,
    street_number_1: p.numberFirst,
    street_number_2: p.numberLast,
    unit_identifier: p.flat,
    unit_type: p.flat !== null ? (p.flatType ?? 'Unit') : null,
    level_number: p.level,
    level_type: p.levelType,
    lot_identifier: p.lot,
    site_name: p.site,
    street_name: p.streetName,
    street_type: p.streetType,
    street_suffix: p.streetSuffix,
    street: streetField(p),
  };
}

/**
 * `street` is the street name plus its type ("Queen Street"); the suffix has its own field
 * (`street_suffix`), so a client joining the two does not get it twice. The address lines keep it.
 */
function streetField(p: AddressParts): string | null {
  const parts = [p.streetName, p.streetType].filter((x) => x !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

function coordinates(table: AddressTable, row: number): Record<string, string | null> {
  const lat = table.rows.latitude[row]!;
  const lon = table.rows.longitude[row]!;
  if (lat === NO_COORDINATE || lon === NO_COORDINATE) return { latitude: null, longitude: null };
  return { latitude: (lat / 1e6).toFixed(6), longitude: (lon / 1e6).toFixed(6) };
}
