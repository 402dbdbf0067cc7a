import { STATE_CODES } from '../data/vocabulary.ts';
import { SPARSE } from '../dataset/columns.ts';
import type { AddressTable } from '../dataset/table.ts';

/** One row's attributes as display strings (null where empty), read from the columns. */
export interface AddressParts {
  readonly flatType: string | null;
  readonly flat: string | null;
  readonly levelType: string | null;
  readonly level: string | null;
  readonly lot: string | null;
  readonly site: string | null;
  readonly numberFirst: string | null;
  readonly numberLast: string | null;
  readonly streetName: string | null;
  readonly streetType: string | null;
  readonly streetSuffix: string | null;
  readonly boxType: string | null;
  readonly boxNumber: string | null;
  readonly locality: string;
  readonly state: string;
  readonly postcode: string;
  readonly legalParcel: string | null;
}

export function readParts(table: AddressTable, row: number, group = table.groupOf(row)): AddressParts {
  const s = table.rows.strings;
  const g = table.groups;
  const str = (id: number): string | null => table.pool.get(id);
  return {
    flatType: table.types.get(table.rows.flatType[row]!),
    flat: str(table.value(SPARSE.flat, row)),
    levelType: table.types.get(table.rows.levelType[row]!),
    level: str(table.value(SPARSE.level, row)),
    lot: str(table.value(SPARSE.lot, row)),
    site: table.texts.get(table.value(SPARSE.site, row)),
    numberFirst: str(s.numberFirst[row]!),
    numberLast: str(table.value(SPARSE.numberLast, row)),
    streetName: str(g.streetName[group]!),
    streetType: str(g.streetType[group]!),
    streetSuffix: str(g.streetSuffix[group]!),
    boxType: str(g.boxType[group]!),
    boxNumber: str(table.value(SPARSE.boxNumber, row)),
    locality: str(g.locality[group]!) ?? '',
    state: STATE_CODES[g.state[group]!] ?? '',
    postcode: str(g.postcode[group]!) ?? '',
    legalParcel: table.texts.get(table.value(SPARSE.legalParcel, row)),
  };
}

export function streetOf(p: AddressParts): string | null {
  const parts = [p.streetName, p.streetType, p.streetSuffix].filter((x) => x !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** "Unit 2", "Level 3", "Ground": the parts before the street line. */
export function subPremises(p: AddressParts): string[] {
  const out: string[] = [];
  if (p.flat !== null) out.push(`${p.flatType ?? 'Unit'} ${p.flat}`);
  if (p.levelType !== null || p.level !== null)
    out.push([p.levelType ?? 'Level', p.level].filter((x) => x !== null).join(' '));
  return out;
}

/** "14-16 Smith Street", "Lot 12 Smith Road", "PO Box 123". */
export function streetLine(p: AddressParts): string {
  if (p.boxType !== null) return `${p.boxType} ${p.boxNumber ?? ''}`.trim();
  const street = streetOf(p) ?? '';
  if (p.numberFirst !== null) return `${p.numberFirst}${p.numberLast ? `-${p.numberLast}` : ''} ${street}`.trim();
  if (p.lot !== null) return `Lot ${p.lot} ${street}`.trim();
  return street;
}

/** "Unit 2, 21 Kent Road, DAPTO NSW 2530" (the API's full_address form). */
export function fullAddress(p: AddressParts): string {
  return [...subPremises(p), streetLine(p), `${p.locality} ${p.state} ${p.postcode}`].join(', ');
}
