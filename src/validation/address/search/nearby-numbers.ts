import type { AddressTable } from '../dataset/table.ts';
import { type RowQuery, type RowScore, scoreRow } from './row-scorer.ts';

/** Rows examined for nearby numbers per search: bounds a query whose unit no street has. */
export const NEARBY_BUDGET = 16_384;

/** Sort keys, lower first: typed-digit prefixes by value, then by distance, then unnumbered;
 * a number's further rows (its units) after every number's first. */
const BY_DISTANCE = 2 ** 32;
const UNNUMBERED = 2 ** 40;
const REPEATED = 2 ** 41;

export interface NearbyRow {
  readonly row: number;
  readonly key: number;
  readonly bonus: number;
}

/**
 * Autocomplete's answer for a street that lacks the typed house number (the user may still be
 * typing it, or misremember it): the street's rows whose number starts with the typed digits
 * first ("1" → 1A, 10, 12, 100…), then the numerically closest (the lower on a tie), lots
 * last. Each number is listed once (its first row: the building, rows being in number, level,
 * unit order) before any number's units, so ten suggestions show ten numbers. Unit, level and
 * lot asked for must still match.
 * Search ranks these below every number match; verification never asks for them.
 */
export class NearbyNumbers {
  readonly #table: AddressTable;
  readonly #score: RowScore = { bonus: 0, number: 'none' };
  #budget = 0;

  constructor(table: AddressTable) {
    this.#table = table;
  }

  /** Starts a new search's budget. */
  reset(): void {
    this.#budget = NEARBY_BUDGET;
  }

  /** The best `limit` rows of start..end for `query` with its house number relaxed. */
  collect(start: number, end: number, query: RowQuery, admit: (row: number) => boolean, limit: number): NearbyRow[] {
    const want = query.number!;
    const relaxed: RowQuery = { ...query, number: null, numberLast: null };
    const typed = {
      digits: want.value > 0 && String(want.value) === want.text ? want.value : -1,
      near: Math.min(Number.parseInt(want.text, 10), 2 ** 31),
    };
    const out: NearbyRow[] = [];
    const numberFirst = this.#table.rows.strings.numberFirst;
    const stop = Math.min(end, start + this.#budget);
    this.#budget -= stop - start;
    let previous = 0;
    for (let row = start; row < stop; row++) {
      if (!admit(row) || !scoreRow(this.#table, row, relaxed, this.#score)) continue;
      const id = numberFirst[row]!;
      const repeated = id !== 0 && id === previous ? REPEATED : 0;
      previous = id;
      const bonus = this.#score.bonus;
      const key = (repeated + numberKey(this.#table, id, typed)) * 64 + 32 - Math.max(-31, Math.min(31, bonus));
      insertByKey(out, { row, key, bonus }, limit);
    }
    return out;
  }
}

/** Where a house number (pool id) sorts for the typed number (`digits` -1: not plain digits). */
function numberKey(table: AddressTable, id: number, typed: { digits: number; near: number }): number {
  const n = id === 0 ? -1 : table.numeric[id]!;
  if (n < 0) return UNNUMBERED;
  if (typed.digits >= 0 && startsWithDigits(n, typed.digits)) return n;
  if (Number.isNaN(typed.near)) return BY_DISTANCE + n;
  return BY_DISTANCE + 2 * Math.abs(n - typed.near) + (n > typed.near ? 1 : 0);
}

/** Whether the decimal digits of `n` start with those of `digits` (15 and 100 start with 1). */
function startsWithDigits(n: number, digits: number): boolean {
  let m = n;
  while (m > digits) m = Math.floor(m / 10);
  return m === digits;
}

/** Bounded insertion, lowest key first; ties keep the earlier (lower-numbered) row. */
function insertByKey(out: NearbyRow[], hit: NearbyRow, limit: number): void {
  if (out.length === limit && hit.key >= out[limit - 1]!.key) return;
  let i = out.length;
  while (i > 0 && out[i - 1]!.key > hit.key) i--;
  out.splice(i, 0, hit);
  if (out.length > limit) out.pop();
}
