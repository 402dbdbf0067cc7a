import type { ParsedQuery } from './query.ts';
import { lowerBound, type TermIndex } from './term-index.ts';

/**
 * A driver word (the query's rarest) whose terms' postings exceed HEAVY_COST groups is "heavy":
 * candidates come from the largest streets it names, at most HEAVY_CANDIDATES, so a query
 * costs a bounded amount at any data set size. At national scale "thomas" names thousands of
 * streets and a one-letter prefix hundreds of thousands; a query that names its suburb is
 * rarely heavy. A word whose postings cover more than DENSE_SHARE of all streets scans the
 * largest streets of all (at most HEAVY_SCAN) for those it matches instead.
 */
const HEAVY_COST = 2048;
const HEAVY_CANDIDATES = 512;
const DENSE_SHARE = 0.1;
const HEAVY_SCAN = 16_384;
/** Two words both under this many postings are intersected in full rather than bounded. */
export const INTERSECT_COST = 65_536;

/** The words a query's street-locality groups are drawn from: their expanded terms. */
export interface Drivers {
  readonly driver: readonly number[];
  /** The second-rarest word's terms, when it names fewer than INTERSECT_COST streets. */
  readonly second: readonly number[] | null;
  /** Postings of the driver's terms, counted with repeats. */
  readonly cost: number;
}

/**
 * Which street-locality groups a query looks at, each once, largest first where the query is
 * bounded. `visit` scores a group and `accepted` says how many it has kept so far. Stamp
 * arrays are reused between searches (one runs at a time on a Node thread).
 */
export class CandidateGroups {
  readonly #index: TermIndex;
  readonly #seen: Uint32Array;
  readonly #second: Uint32Array;
  #epoch = 0;

  constructor(index: TermIndex, groupCount: number) {
    this.#index = index;
    this.#seen = new Uint32Array(groupCount);
    this.#second = new Uint32Array(groupCount);
  }

  forEach(query: ParsedQuery, drivers: Drivers, visit: (group: number) => void, accepted: () => number): void {
    const { postStart, postGroups, groupsByRank } = this.#index;
    const stamp = this.#next();
    const once = (group: number): void => {
      if (this.#seen[group] === stamp) return;
      this.#seen[group] = stamp;
      visit(group);
    };
    const { driver, second, cost } = drivers;
    const heavy = cost > HEAVY_COST;
    if (heavy && second && cost <= INTERSECT_COST) {
      // Two words that each name thousands of streets ("3 forest rd fair") name few together:
      // mark the second's streets, then take the driver's that are marked, largest first.
      const marked = this.#next();
      for (const term of second)
        for (let p = postStart[term]!; p < postStart[term + 1]!; p++) this.#second[postGroups[p]!] = marked;
      for (const term of driver) {
        for (let p = postStart[term]!; p < postStart[term + 1]! && accepted() < HEAVY_CANDIDATES; p++) {
          if (this.#second[postGroups[p]!] === marked) once(postGroups[p]!);
        }
      }
    } else if (heavy && cost > groupsByRank.length * DENSE_SHARE) {
      // A short prefix ("19 s") matches a large share of all streets: look at the largest.
      const scan = Math.min(groupsByRank.length, HEAVY_SCAN);
      for (let i = 0; i < scan && accepted() < HEAVY_CANDIDATES; i++) once(groupsByRank[i]!);
    } else {
      // Postings list the largest streets first: a word found in thousands of streets ("282
      // thomas") is looked for in its largest HEAVY_CANDIDATES only.
      const take = heavy ? Math.max(2, Math.ceil(HEAVY_CANDIDATES / driver.length)) : Number.MAX_SAFE_INTEGER;
      for (const term of driver) {
        const end = Math.min(postStart[term + 1]!, postStart[term]! + take);
        for (let p = postStart[term]!; p < end; p++) once(postGroups[p]!);
      }
    }
    // A bounded query that names a postcode ("213 robert cl 4028") also looks in every street
    // of that postcode, however small: the postcode is the place it names.
    if (heavy)
      for (const term of this.#postcodeTerms(query))
        for (let p = postStart[term]!; p < postStart[term + 1]!; p++) once(postGroups[p]!);
  }

  #next(): number {
    if (++this.#epoch === 0xffffffff) {
      this.#seen.fill(0);
      this.#second.fill(0);
      this.#epoch = 1;
    }
    return this.#epoch;
  }

  /** Postcode terms a typed number may be: itself (three or four digits), or while typed, those it starts. */
  #postcodeTerms(query: ParsedQuery): number[] {
    const terms = this.#index.terms;
    const out: number[] = [];
    for (const flex of query.flex) {
      if (!/^\d{3,4}$/.test(flex.text)) continue;
      for (let t = lowerBound(terms, flex.text); t < terms.length && terms[t]!.startsWith(flex.text); t++) {
        if (terms[t] === flex.text || (flex.prefix && /^\d{4}$/.test(terms[t]!))) out.push(t);
      }
    }
    return out;
  }
}
