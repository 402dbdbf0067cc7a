import type { AddressInput } from './address-input.ts';
import { isStateCode } from '../data/vocabulary.ts';

/**
 * The on-disk form of an imported data set: one address per line, tab-separated, in this
 * column order, empty = null. Plain text streams in and out in constant memory and is easy to
 * inspect; the loader rebuilds the index from it at start.
 */
export const TSV_COLUMNS = [
  'gnafPid',
  'aliasOfPid',
  'siteName',
  'lot',
  'flatType',
  'flat',
  'levelType',
  'level',
  'numberFirst',
  'numberLast',
  'streetName',
  'streetType',
  'streetSuffix',
  'boxType',
  'boxNumber',
  'locality',
  'state',
  'postcode',
  'latitude',
  'longitude',
  'legalParcelId',
] as const satisfies readonly (keyof AddressInput)[];

export function toTsvLine(input: AddressInput): string {
  return TSV_COLUMNS.map((c) => {
    const value = input[c];
    return value === null ? '' : String(value).replace(/[\t\r\n]/g, ' ');
  }).join('\t');
}

export function fromTsvLine(line: string): AddressInput {
  const cells = line.split('\t');
  if (cells.length !== TSV_COLUMNS.length)
    throw new TypeError(`expected ${TSV_COLUMNS.length} columns, got ${cells.length}`);
  const get = (i: number): string | null => (cells[i] === '' ? null : cells[i]!);
  const state = get(16) ?? '';
  if (!isStateCode(state)) throw new TypeError(`unknown state "${state}"`);
  const number = (i: number): number | null => (cells[i] === '' ? null : Number(cells[i]));
  return {
    gnafPid: get(0),
    aliasOfPid: get(1),
    siteName: get(2),
    lot: get(3),
    flatType: get(4),
    flat: get(5),
    levelType: get(6),
    level: get(7),
    numberFirst: get(8),
    numberLast: get(9),
    streetName: get(10),
    streetType: get(11),
    streetSuffix: get(12),
    boxType: get(13),
    boxNumber: get(14),
    locality: get(15) ?? '',
    state,
    postcode: get(17) ?? '',
    latitude: number(18),
    longitude: number(19),
    legalParcelId: get(20),
  };
}
