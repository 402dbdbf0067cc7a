import type { AddressTable } from '../dataset/table.ts';
import type { QueryNumber } from './query.ts';

/** The number constraints a query puts on rows of one group. */
export interface RowQuery {
  number: QueryNumber | null;
  numberLast: string | null;
  unit: QueryNumber | null;
  level: QueryNumber | null;
  lot: QueryNumber | null;
  isBox: boolean;
}

export type NumberMatch = 'exact' | 'range' | 'prefix' | 'lot' | 'none';

const BONUS = { exact: 20, range: 14, prefix: 12, lot: 10, unit: 10, unitPrefix: 6, level: 6, levelPrefix: 4, lotExact: 15, lotPrefix: 8 } as const;

/** The best bonus any row can earn for this query: the bound that stops the row scan early. */
export function maxRowBonus(q: RowQuery): number {
  return (q.number ? BONUS.exact + (q.numberLast ? 2 : 0) : 0) + (q.unit ? BONUS.unit : 0) + (q.level ? BONUS.level : 0) + (q.lot ? BONUS.lotExact : 0);
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
 */
export function scoreRow(table: AddressTable, row: number, q: RowQuery, out: RowScore): boolean {
  const s = table.rows.strings;
  let bonus = 0;
  out.number = 'none';
  if (q.number) {
    const kind = matchNumber(table, row, q);
    if (kind === 'none') return false;
    out.number = kind;
    bonus += BONUS[kind];
    if (q.numberLast && text(table, s.numberLast[row]!) === q.numberLast) bonus += 2;
  }
  const unit = matchPart(text(table, s.flat[row]!), q.unit, BONUS.unit, BONUS.unitPrefix, 2);
  const level = matchPart(text(table, s.level[row]!) || (table.rows.levelType[row] ? '0' : ''), q.level, BONUS.level, BONUS.levelPrefix, 1);
  const lot = q.lot ? matchPart(text(table, s.lot[row]!), q.lot, BONUS.lotExact, BONUS.lotPrefix, 0) : 0;
  if (unit === null || level === null || lot === null) return false;
  bonus += unit + level + lot;
  if (table.rows.canonical[row] !== row) bonus -= 1;
  out.bonus = bonus;
  return true;
}

function matchNumber(table: AddressTable, row: number, q: RowQuery): NumberMatch {
  const s = table.rows.strings;
  const want = q.number!;
  const value = text(table, q.isBox ? s.boxNumber[row]! : s.numberFirst[row]!);
  if (value === want.text) return 'exact';
  const last = q.isBox ? '' : text(table, s.numberLast[row]!);
  if (last && inRange(want.text, value, last)) return 'range';
  if (want.prefix && value.startsWith(want.text)) return 'prefix';
  if (!value && text(table, s.lot[row]!) === want.text) return 'lot';
  return 'none';
}

/** Bonus for a unit/level/lot part; null when the query names one the row does not have. */
function matchPart(value: string, want: QueryNumber | null, exact: number, prefix: number, unasked: number): number | null {
  if (!want) return value ? -unasked : 0;
  if (value === want.text) return exact;
  if (want.prefix && value.startsWith(want.text)) return prefix;
  return null;
}

function inRange(want: string, first: string, last: string): boolean {
  const n = Number.parseInt(want, 10);
  return /^\d+$/.test(want) && n >= Number.parseInt(first, 10) && n <= Number.parseInt(last, 10);
}

function text(table: AddressTable, id: number): string {
  return id === 0 ? '' : (table.pool.get(id) ?? '').toLowerCase();
}
