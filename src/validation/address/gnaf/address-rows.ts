import type { AddressInput } from '../dataset/address-input.ts';
import { titleCase } from '../dataset/address-input.ts';
import type { GnafLookups } from './lookups.ts';
import { detached, type PsvRow } from './psv.ts';

export type Outcome = 'retired' | 'invalid';

/** Joins prefix, number and suffix columns: LOT_NUMBER_PREFIX|LOT_NUMBER|LOT_NUMBER_SUFFIX → "A12B". */
function joined(row: PsvRow, base: string): string | null {
  const parts = [row.get(`${base}_PREFIX`), row.get(base), row.get(`${base}_SUFFIX`)].filter((x) => x !== null);
  return parts.length > 0 ? parts.join('') : null;
}

/**
 * One ADDRESS_DETAIL row joined with its street-locality, locality, default geocode and alias
 * principal. Retired rows are skipped; a row naming an unknown street or locality is invalid.
 */
export function addressFromRow(
  row: PsvRow,
  lookups: GnafLookups,
  geocode: (pid: string) => readonly [number, number] | undefined,
  principalOf: (pid: string) => string | undefined,
): AddressInput | Outcome {
  if (row.get('DATE_RETIRED')) return 'retired';
  const pid = row.get('ADDRESS_DETAIL_PID');
  const locality = lookups.localities.get(row.get('LOCALITY_PID') ?? '');
  const street = lookups.streets.get(row.get('STREET_LOCALITY_PID') ?? '');
  const postcode = row.get('POSTCODE') ?? locality?.postcode ?? null;
  if (!pid || !locality || !street || !postcode) return 'invalid';
  const flatCode = row.get('FLAT_TYPE_CODE');
  const levelCode = row.get('LEVEL_TYPE_CODE');
  const point = geocode(pid);
  const building = row.get('BUILDING_NAME');
  return {
    gnafPid: pid,
    aliasOfPid: row.get('ALIAS_PRINCIPAL') === 'A' ? (principalOf(pid) ?? null) : null,
    siteName: building ? titleCase(building) : null,
    lot: joined(row, 'LOT_NUMBER'),
    flatType: flatCode ? (lookups.flatTypes.get(flatCode) ?? titleCase(flatCode)) : null,
    flat: joined(row, 'FLAT_NUMBER'),
    levelType: levelCode ? (lookups.levelTypes.get(levelCode) ?? titleCase(levelCode)) : null,
    level: joined(row, 'LEVEL_NUMBER'),
    numberFirst: joined(row, 'NUMBER_FIRST'),
    numberLast: joined(row, 'NUMBER_LAST'),
    streetName: street.name,
    streetType: street.type,
    streetSuffix: street.suffix,
    boxType: null,
    boxNumber: null,
    locality: locality.name,
    state: locality.state,
    postcode,
    latitude: point ? point[0] : null,
    longitude: point ? point[1] : null,
    legalParcelId: detached(row.get('LEGAL_PARCEL_ID')),
  };
}

export const ADDRESS_COLUMNS = [
  'ADDRESS_DETAIL_PID',
  'STREET_LOCALITY_PID',
  'LOCALITY_PID',
  'NUMBER_FIRST',
  'POSTCODE',
] as const;
