import { STATE_CODES } from '../data/vocabulary.ts';
import { STREET_TYPE_WORDS } from './alternatives.ts';
import { withinOneEdit } from './edit-distance.ts';
import type { QueryWord } from './query.ts';
import { lowerBound, tailLowerBound, type TermIndex } from './term-index.ts';

/**
 * Match quality of a term for a query word; ranking adds these up. `wrongType`: a street type
 * the group does not have, tolerated when every other word matches ("85 Lake Road" for Lake
 * Street), below any typo so the street of the typed type ranks first.
 */
export const QUALITY = { exact: 10, prefix: 7, typo: 4, typoPrefix: 3, wrongType: 1 } as const;

/**
 * What a search pass matches beyond exact words and prefixes: one typo with the first letter
 * kept (and one street type tolerated), then also a typo in the first letter, whose
 * neighbours ("east" → beast, cast, fast, last…) are many, so it runs only when the typo
 * pass found no number.
 */
export const PASS = { exact: 0, typos: 1, firstLetter: 2 } as const;
export type Pass = (typeof PASS)[keyof typeof PASS];

export const MAX_WORDS = 16;
/** Shortest word looked up with any one edit; shorter finished words only for a dropped letter. */
const FULL_TYPO_LENGTH = 4;

/**
 * Whether `word` makes a typo pass worth running: not a two- or three-letter word still being
 * typed (its prefix matches suffice), though the pass, once run, looks for its neighbours too.
 */
export function typoable(word: QueryWord): boolean {
  return word.text.length >= FULL_TYPO_LENGTH || (!word.prefix && shortTypoable(word.text));
}

/** A street type, state or other abbreviation the search knows: typed as meant, not a typo ("ave", "nsw"). */
function isVocabulary(word: QueryWord): boolean {
  return word.alternatives.length > 0 || STREET_TYPE_WORDS.has(word.text) || STATE_WORDS.has(word.text);
}

const STATE_WORDS: ReadonlySet<string> = new Set(STATE_CODES.map((code) => code.toLowerCase()));

/** Two or three letters (a postcode typed short is not a typo for a longer one). */
function shortTypoable(text: string): boolean {
  return text.length >= 2 && /^[a-z]+$/.test(text);
}

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
  /** Per word: a street type that may go unmatched (typo pass only). */
  readonly #tolerable = new Uint8Array(MAX_WORDS);
  #widened = false;
  #epoch = 0;

  constructor(index: TermIndex) {
    this.#index = index;
    const n = index.terms.length;
    this.#quality = Array.from({ length: MAX_WORDS }, () => new Uint8Array(n));
    this.#stamp = Array.from({ length: MAX_WORDS }, () => new Uint32Array(n));
  }

  /** Starts a new search; previous marks become invisible. */
  reset(): void {
    this.#widened = false;
    this.#epoch++;
    if (this.#epoch === 0xffffffff) {
      for (const s of this.#stamp) s.fill(0);
      this.#epoch = 1;
    }
  }

  /** Marks the terms word `slot` matches in `pass`; returns them (the driver word iterates their postings). */
  expand(slot: number, word: QueryWord, pass: Pass): number[] {
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
    this.#tolerable[slot] = pass !== PASS.exact && STREET_TYPE_WORDS.has(word.text) ? 1 : 0;
    if (pass === PASS.exact || !(word.text.length >= FULL_TYPO_LENGTH || shortTypoable(word.text))) return matched;
    const quality = word.prefix ? QUALITY.typoPrefix : QUALITY.typo;
    const at = (term: number): void => mark(term, quality);
    const before = matched.length;
    this.#typos(word, at);
    const typos = matched.length;
    if (pass === PASS.firstLetter) this.#firstLetterTypos(word, at);
    if (matched.length > (pass === PASS.firstLetter ? typos : before)) this.#widened = true;
    return matched;
  }

  /** Whether the pass's words matched a term the previous pass's did not. */
  get widened(): boolean {
    return this.#widened;
  }

  /**
   * One-edit neighbours with the same first letter. A three-letter word looks only for a
   * dropped letter ("pit" → "pitt", "hil" → "hill"), a two-letter one only for a doubled
   * letter ("an" → "ann"): any other edit of so short a word is another word.
   */
  #typos(word: QueryWord, mark: (term: number) => void): void {
    const text = word.text;
    if (text.length >= FULL_TYPO_LENGTH) this.#sameFirstLetter(word, mark);
    else if (text.length === 2) {
      if (!word.prefix) this.#lookup(text + text[1], false, mark);
    } else if (!isVocabulary(word)) {
      // Each letter a-z inserted after the first: 78 binary searches, not a scan of the dictionary.
      for (let at = 1; at <= text.length; at++) {
        for (let c = 97; c <= 122; c++) {
          this.#lookup(text.slice(0, at) + String.fromCharCode(c) + text.slice(at), word.prefix, mark);
        }
      }
    }
  }

  /** A wrong, missing, extra or swapped first letter, by binary search ("pictoria" → "victoria"; "ill" → "hill"). */
  #firstLetterTypos(word: QueryWord, mark: (term: number) => void): void {
    const text = word.text;
    if (text.length === 2) return;
    if (text.length < FULL_TYPO_LENGTH) {
      if (!word.prefix && !isVocabulary(word)) this.#tails(text, false, mark);
      return;
    }
    this.#tails(text.slice(1), word.prefix, mark);
    this.#tails(text, word.prefix, mark);
    this.#lookup(text.slice(1), word.prefix, mark);
    this.#lookup(text[1]! + text[0]! + text.slice(2), word.prefix, mark);
  }

  /** Scans the terms that start with the word's letter for those one edit away. */
  #sameFirstLetter(word: QueryWord, mark: (term: number) => void): void {
    const terms = this.#index.terms;
    const text = word.text;
    const end = lowerBound(terms, String.fromCharCode(text.charCodeAt(0) + 1));
    for (let t = lowerBound(terms, text[0]!); t < end; t++) if (withinOneEdit(text, terms[t]!, word.prefix)) mark(t);
  }

  /** Marks the terms whose text after the first letter is `tail` (or, for a prefix, begins with it). */
  #tails(tail: string, prefix: boolean, mark: (term: number) => void): void {
    const { terms, tailOrder } = this.#index;
    for (let i = tailLowerBound(this.#index, tail); i < tailOrder.length; i++) {
      const rest = terms[tailOrder[i]!]!.slice(1);
      if (prefix ? !rest.startsWith(tail) : rest !== tail) break;
      mark(tailOrder[i]!);
    }
  }

  /** Marks the term equal to `text` (or, for a prefix, every term it begins). */
  #lookup(text: string, prefix: boolean, mark: (term: number) => void): void {
    const terms = this.#index.terms;
    for (let t = lowerBound(terms, text); t < terms.length; t++) {
      if (prefix ? !terms[t]!.startsWith(text) : terms[t] !== text) break;
      mark(t);
    }
  }

  /** Whether word `slot` is a street type that may go unmatched in the current search. */
  tolerable(slot: number): boolean {
    return this.#tolerable[slot] === 1;
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
