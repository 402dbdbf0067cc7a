import { withinOneEdit } from './edit-distance.ts';
import type { QueryWord } from './query.ts';
import { lowerBound, type TermIndex } from './term-index.ts';

/** Match quality of a term for a query word; ranking adds these up. */
export const QUALITY = { exact: 10, prefix: 7, typo: 4, typoPrefix: 3 } as const;

export const MAX_WORDS = 16;
export const MIN_TYPO_LENGTH = 4;

/**
 * Expands each query word to the dictionary terms it matches (exact, abbreviation, prefix
 * while typing, and in the second pass one typo) and marks them in per-word scratch arrays
 * that the group scorer reads in O(1). Scratch arrays are reused between searches (one
 * search runs at a time on a Node thread); an epoch stamp avoids clearing them.
 */
export class WordMatcher {
  readonly #index: TermIndex;
  readonly #quality: Uint8Array[];
  readonly #stamp: Uint32Array[];
  #epoch = 0;

  constructor(index: TermIndex) {
    this.#index = index;
    const n = index.terms.length;
    this.#quality = Array.from({ length: MAX_WORDS }, () => new Uint8Array(n));
    this.#stamp = Array.from({ length: MAX_WORDS }, () => new Uint32Array(n));
  }

  /** Starts a new search; previous marks become invisible. */
  reset(): void {
    this.#epoch++;
    if (this.#epoch === 0xffffffff) {
      for (const s of this.#stamp) s.fill(0);
      this.#epoch = 1;
    }
  }

  /** Marks the terms word `slot` matches; returns them (the driver word iterates their postings). */
  expand(slot: number, word: QueryWord, typos: boolean): number[] {
    const terms = this.#index.terms;
    const matched: number[] = [];
    const mark = (term: number, quality: number): void => {
      const stamp = this.#stamp[slot]!;
      const q = this.#quality[slot]!;
      if (stamp[term] !== this.#epoch) {
        stamp[term] = this.#epoch;
        q[term] = quality;
        matched.push(term);
      } else if (q[term]! < quality) q[term] = quality;
    };
    for (const text of [word.text, ...word.alternatives]) {
      const at = lowerBound(terms, text);
      if (terms[at] === text) mark(at, QUALITY.exact);
    }
    if (word.prefix) {
      for (let t = lowerBound(terms, word.text); t < terms.length && terms[t]!.startsWith(word.text); t++)
        mark(t, QUALITY.prefix);
    }
    if (typos && word.text.length >= MIN_TYPO_LENGTH) this.#typos(word, mark);
    return matched;
  }

  /** One-edit neighbours, scanning only terms with the same first letter (a typo there is rare). */
  #typos(word: QueryWord, mark: (term: number, quality: number) => void): void {
    const terms = this.#index.terms;
    const first = word.text[0]!;
    const end = lowerBound(terms, String.fromCharCode(first.charCodeAt(0) + 1));
    for (let t = lowerBound(terms, first); t < end; t++) {
      if (withinOneEdit(word.text, terms[t]!, word.prefix)) mark(t, word.prefix ? QUALITY.typoPrefix : QUALITY.typo);
    }
  }

  /** Quality of `term` for word `slot` in the current search (0 = no match). */
  quality(slot: number, term: number): number {
    return this.#stamp[slot]![term] === this.#epoch ? this.#quality[slot]![term]! : 0;
  }

  /** Sum of posting lengths: how many groups iterating this word would visit. */
  cost(matched: readonly number[]): number {
    let total = 0;
    for (const t of matched) total += this.#index.postStart[t + 1]! - this.#index.postStart[t]!;
    return total;
  }
}
