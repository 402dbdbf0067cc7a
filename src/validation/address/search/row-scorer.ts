import { SPARSE } from '../dataset/columns.ts';
import type { AddressTable } from '../dataset/table.ts';
import type { QueryNumber } from './query.ts';

/** A typed number resolved against the string pool once per search: rows compare integers. */
export interface NumberWant {
  readonly text: string;
  /** Pool id of the exact identifier (0 when no address has it). */
  readonly id: number;
  /** Its integer value (-1 when not purely digits): tests ranged numbers. */
  readonly value: number;
  readonly prefix: boolean;
}

export function resolveNumber(table: AddressTable, q: QueryNumber | null): NumberWant | null {
  if (!q) return null;
  const id = table.pool.find(q.text) || table.pool.find(q.text.toUpperCase());
  return { text: q.text, id, value: /^\d{1,9}$/.test(q.text) ? Number(q.text) : -1, prefix: q.prefix };
}

/** The number constraints a query puts on rows of one group. */
export interface RowQuery {
  number: NumberWant | null;
  numberLast: NumberWant | null;
  unit: NumberWant | null;
  level: NumberWant | null;
  lot: NumberWant | null;
  /** Level type id a numberless level must have ("Ground"); 0 = none asked. */
  levelType: number;
  isBox: boolean;
}

export type NumberMatch = 'exact' | 'range' | 'prefix' | 'lot' | 'none';

const BONUS = {
  exact: 20,
  range: 14,
  prefix: 12,
  lot: 10,
  unit: 10,
  unitPrefix: 6,
  level: 6,
  levelPrefix: 4,
  lotExact: 15,
  lotPrefix: 8,
} as const;

/** The best bonus any row can earn for this query: the bound that stops the row scan early. */
export function maxRowBonus(q: RowQuery): number {
  return (
    (q.number ? BONUS.exact + (q.numberLast ? 2 : 0) : 0) +
    (q.unit ? BONUS.unit : 0) +
    (q.level || q.levelType ? BONUS.level : 0) +
    (q.lot ? BONUS.lotExact : 0)
  );
}

export interface RowScore {
  bonus: number;
  number: NumberMatch;
}

/**
 * Scores a row against the number constraints: exact house (or box) number beats a range
 * that contains it, which beats a prefix of the number being typed; unit, level and lot must
 * match when given. Rows with a unit or level the query did not ask for, and aliases, lose a
 * point or two so "14 Smith St" lists the building before its units. False = no match.
 * Exact tests are integer compares of pool ids; strings are read only for a typed prefix.
 */
export function scoreRow(table: AddressTable, row: number, q: RowQuery, out: RowScore): boolean {
  let bonus = 0;
  out.number = 'none';
  if (q.number) {
    const kind = matchNumber(table, row, q.number, q.isBox);
    if (kind === 'none') return false;
    out.number = kind;
    bonus += BONUS[kind];
    if (q.numberLast && q.numberLast.id !== 0 && table.value(SPARSE.numberLast, row) === q.numberLast.id) bonus += 2;
  }
  const unit = matchPart(table, table.value(SPARSE.flat, row), q.unit, BONUS.unit, BONUS.unitPrefix, 2);
  if (unit === null) return false;
  const levelId = table.value(SPARSE.level, row);
  const levelPresent = levelId !== 0 || table.rows.levelType[row] !== 0;
  const level = q.level ? matchPart(table, levelId, q.level, BONUS.level, BONUS.levelPrefix, 0) : levelPresent ? -1 : 0;
  if (level === null) return false;
  if (q.levelType !== 0) {
    if (table.rows.levelType[row] !== q.levelType) return false;
    bonus += BONUS.level + 1;
  }
  const lot = q.lot ? matchPart(table, table.value(SPARSE.lot, row), q.lot, BONUS.lotExact, BONUS.lotPrefix, 0) : 0;
  if (lot === null) return false;
  bonus += unit + level + lot;
  if (table.canonical(row) !== row) bonus -= 1;
  out.bonus = bonus;
  return true;
}

function matchNumber(table: AddressTable, row: number, want: NumberWant, isBox: boolean): NumberMatch {
  const s = table.rows.strings;
  const value = isBox ? table.value(SPARSE.boxNumber, row) : s.numberFirst[row]!;
  if (want.id !== 0 && value === want.id) return 'exact';
  const last = isBox ? 0 : table.value(SPARSE.numberLast, row);
  if (last !== 0 && want.value >= 0 && table.numeric[value]! <= want.value && want.value <= table.numeric[last]!)
    return 'range';
  if (want.prefix && value !== 0 && startsWith(table, value, want.text)) return 'prefix';
  if (value === 0 && want.id !== 0 && table.value(SPARSE.lot, row) === want.id) return 'lot';
  return 'none';
}

/** Bonus for a unit/level/lot part; null when the query names one the row does not have. */
function matchPart(
  table: AddressTable,
  value: number,
  want: NumberWant | null,
  exact: number,
  prefix: number,
  unasked: number,
): number | null {
  if (!want) return value !== 0 ? -unasked : 0;
  if (want.id !== 0 && value === want.id) return exact;
  if (want.prefix && value !== 0 && startsWith(table, value, want.text)) return prefix;
  return null;
}

function startsWith(table: AddressTable, id: number, text: string): boolean {
  return (table.pool.get(id) ?? '').toLowerCase().startsWith(text);
}
