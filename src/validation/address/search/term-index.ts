import type { AddressTable } from '../dataset/table.ts';
import { STATE_CODES } from '../data/vocabulary.ts';
import { indexWords } from './normalize.ts';

/** Which part of an address a term came from (ranking and verification need to know). */
export const FIELD = { street: 1, streetType: 2, suffix: 3, box: 4, locality: 5, state: 6, postcode: 7 } as const;
export type Field = (typeof FIELD)[keyof typeof FIELD];

/**
 * The inverted index, built over street-locality groups rather than addresses: a few tens of
 * thousands of groups carry every word of a million addresses, so postings stay small and
 * numbers are matched afterwards inside the winning groups. Terms are a sorted string array
 * (prefix = binary search), postings and the forward index are flat Uint32Arrays.
 */
export interface TermIndex {
  readonly terms: readonly string[];
  /** Term ids ordered by their text without its first letter: finds a typo in the first letter. */
  readonly tailOrder: Uint32Array;
  readonly postStart: Uint32Array;
  readonly postGroups: Uint32Array;
  readonly fwdStart: Uint32Array;
  readonly fwdTerms: Uint32Array;
  readonly fwdField: Uint8Array;
  /** Groups by number of addresses, largest first: where a word that matches too much looks. */
  readonly groupsByRank: Uint32Array;
}

export function buildTermIndex(table: AddressTable): TermIndex {
  const g = table.groups;
  const words = new Map<string, number>();
  const entries: number[] = [];
  const fields: number[] = [];
  const fwdStart = new Uint32Array(g.count + 1);
  for (let group = 0; group < g.count; group++) {
    const add = (text: string | null, field: Field): void => {
      for (const word of indexWords(text)) {
        let id = words.get(word);
        if (id === undefined) {
          id = words.size;
          words.set(word, id);
        }
        entries.push(id);
        fields.push(field);
      }
    };
    add(table.pool.get(g.streetName[group]!), FIELD.street);
    add(table.pool.get(g.streetType[group]!), FIELD.streetType);
    add(table.pool.get(g.streetSuffix[group]!), FIELD.suffix);
    add(table.pool.get(g.boxType[group]!), FIELD.box);
    add(table.pool.get(g.locality[group]!), FIELD.locality);
    add(STATE_CODES[g.state[group]!] ?? null, FIELD.state);
    add(table.pool.get(g.postcode[group]!), FIELD.postcode);
    fwdStart[group + 1] = entries.length;
  }
  const ranked = groupsByRank(table);
  return {
    ...invert(words, Uint32Array.from(entries), Uint8Array.from(fields), fwdStart, ranked),
    groupsByRank: ranked,
  };
}

/** Largest street-locality first, then in group order: the order of every posting list too. */
function groupsByRank(table: AddressTable): Uint32Array {
  const start = table.groups.rowStart;
  const size = (g: number): number => start[g + 1]! - start[g]!;
  return Uint32Array.from({ length: table.groups.count }, (_v, g) => g).sort((a, b) => size(b) - size(a) || a - b);
}

function invert(
  words: Map<string, number>,
  entries: Uint32Array,
  fwdField: Uint8Array,
  fwdStart: Uint32Array,
  ranked: Uint32Array,
): Omit<TermIndex, 'groupsByRank'> {
  const terms = [...words.keys()].sort();
  const remap = new Uint32Array(terms.length);
  terms.forEach((term, sorted) => {
    remap[words.get(term)!] = sorted;
  });
  const fwdTerms = entries.map((id) => remap[id]!);
  const postStart = new Uint32Array(terms.length + 1);
  const seen = new Int32Array(terms.length).fill(-1);
  const forEachPosting = (visit: (term: number, group: number) => void): void => {
    seen.fill(-1);
    for (const group of ranked) {
      for (let i = fwdStart[group]!; i < fwdStart[group + 1]!; i++) {
        const term = fwdTerms[i]!;
        if (seen[term] !== group) {
          seen[term] = group;
          visit(term, group);
        }
      }
    }
  };
  forEachPosting((term) => {
    postStart[term + 1]!++;
  });
  for (let t = 0; t < terms.length; t++) postStart[t + 1]! += postStart[t]!;
  const cursor = postStart.slice(0, terms.length);
  const postGroups = new Uint32Array(postStart[terms.length]!);
  forEachPosting((term, group) => {
    postGroups[cursor[term]!++] = group;
  });
  return { terms, tailOrder: tailOrder(terms), postStart, postGroups, fwdStart, fwdTerms, fwdField };
}

/** Term ids sorted by `term.slice(1)`, ties in term order. */
function tailOrder(terms: readonly string[]): Uint32Array {
  const tails = terms.map((term) => term.slice(1));
  return Uint32Array.from(terms.keys()).sort((a, b) =>
    tails[a]! < tails[b]! ? -1 : tails[a]! > tails[b]! ? 1 : a - b,
  );
}

/** First position in `tailOrder` whose term's tail is ≥ `value`. */
export function tailLowerBound(index: TermIndex, value: string): number {
  let lo = 0;
  let hi = index.tailOrder.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.terms[index.tailOrder[mid]!]!.slice(1) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index of a term ≥ `value` in the sorted dictionary. */
export function lowerBound(terms: readonly string[], value: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
