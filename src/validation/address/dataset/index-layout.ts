import type { TermIndex } from '../search/term-index.ts';
import type { Pool } from './string-pool.ts';
import type { AddressTable } from './table.ts';

/**
 * What a persisted address index holds, by name: every typed array of the table, its derived
 * columns and its term index, and its string pools. The writer and the reader both take the
 * names from here, so a column added to the table or the term index is persisted without
 * touching either, and a file written by code with other columns is refused as foreign.
 */
export type ArrayKind = 'u8' | 'u32' | 'i32';
export type NumberArray = Uint8Array | Uint32Array | Int32Array;

export interface ArraySection {
  readonly name: string;
  readonly kind: ArrayKind;
  readonly data: NumberArray;
}

/** A list of strings; `sorted` (ids by value) is kept for pools that search looks values up in. */
export interface StringsSection {
  readonly name: string;
  readonly kind: 'strings';
  readonly values: Pool;
  readonly sorted: boolean;
}

export type Section = ArraySection | StringsSection;

/** Pools that `find` is called on (numbers typed in a query, level names). */
const SEARCHED_POOLS = new Set(['pool', 'types']);

export function kindOf(data: unknown): ArrayKind | null {
  if (data instanceof Uint8Array) return 'u8';
  if (data instanceof Uint32Array) return 'u32';
  if (data instanceof Int32Array) return 'i32';
  return null;
}

/** The sections of a data set, in file order. */
export function sectionsOf(table: AddressTable, index: TermIndex): Section[] {
  const out: Section[] = [];
  const arrays = (prefix: string, object: object): void => {
    for (const [key, value] of Object.entries(object)) {
      const kind = kindOf(value);
      if (kind) out.push({ name: `${prefix}.${key}`, kind, data: value as NumberArray });
      else if (value && typeof value === 'object' && !Array.isArray(value)) arrays(`${prefix}.${key}`, value);
    }
  };
  arrays('rows', table.rows);
  arrays('groups', table.groups);
  out.push({ name: 'table.numeric', kind: 'i32', data: table.numeric });
  if (table.pidOrder) out.push({ name: 'table.pidOrder', kind: 'u32', data: table.pidOrder });
  for (const name of ['pool', 'texts', 'types', 'prefixes'] as const) {
    out.push({ name: `pool.${name}`, kind: 'strings', values: table[name], sorted: SEARCHED_POOLS.has(name) });
  }
  const odd = [...table.oddPids];
  out.push({ name: 'odd.pids', kind: 'strings', values: listPool(odd.map(([pid]) => pid)), sorted: false });
  out.push({ name: 'odd.rows', kind: 'u32', data: Uint32Array.from(odd, ([, row]) => row) });
  const { terms, ...termArrays } = index;
  out.push({ name: 'terms.terms', kind: 'strings', values: listPool(terms), sorted: false });
  arrays('terms', termArrays);
  return out;
}

/** A plain list seen as a pool: id i + 1 is list[i] (id 0 stays "empty"). */
export function listPool(values: readonly string[]): Pool {
  return {
    get: (id) => (id >= 1 && id <= values.length ? values[id - 1]! : null),
    find: (value) => values.indexOf(value) + 1,
    size: values.length + 1,
  };
}
