import type { AddressTable } from '../dataset/table.ts';
import type { NumberWant } from './row-scorer.ts';

/** A ranged address (11-15) is found from its first number if it starts at most this far below. */
export const RANGE_REACH = 50;

/**
 * Rows of a street are sorted by house number, so an exact number needs only a window of
 * the street: the unnumbered rows at its start (lots, which "12 Smith Rd" may mean) and the
 * rows numbered from `value - RANGE_REACH` (ranges that may contain it) to `value`.
 * Returns [lotEnd, from, to): scan start..lotEnd and from..to.
 */
export function numberWindow(table: AddressTable, start: number, end: number, value: number): [number, number, number] {
  const first = table.rows.strings.numberFirst;
  const numeric = table.numeric;
  const key = (row: number): number => (first[row] === 0 ? -1 : numeric[first[row]!]!);
  const lowerBound = (target: number): number => {
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (key(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [lowerBound(0), lowerBound(Math.max(0, value - RANGE_REACH)), lowerBound(value + 1)];
}

/**
 * The number whose window holds a typed house number's rows: its value, or for "7a" its
 * leading 7 (rows sort by a number's integer part first); -1 when it has no leading digits.
 */
export function leadingValue(want: NumberWant): number {
  if (want.value >= 0) return want.value;
  const digits = /^\d{1,9}/.exec(want.text);
  return digits ? Number(digits[0]) : -1;
}
