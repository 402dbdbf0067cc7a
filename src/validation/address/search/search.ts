import type { AddressTable } from '../dataset/table.ts';
import { type SearchFilters, stateMask } from './filters.ts';
import { type GroupScore, MATCHED, postcodeMatches, scoreGroup } from './group-scorer.ts';
import type { ParsedQuery, QueryWord } from './query.ts';
import { maxRowBonus, type NumberWant, resolveNumber, type RowQuery, type RowScore, scoreRow } from './row-scorer.ts';
import { NearbyNumbers } from './nearby-numbers.ts';
import { leadingValue, numberWindow } from './number-window.ts';
import { byScore, insert } from './ranking.ts';
import type { SearchHit } from './search-hit.ts';
import type { TermIndex } from './term-index.ts';
import { CandidateGroups, type Drivers, INTERSECT_COST } from './candidate-groups.ts';
import { MAX_WORDS, PASS, type Pass, typoable, WordMatcher } from './word-matcher.ts';

export interface SearchOptions {
  readonly max: number;
  readonly filters: SearchFilters;
  /** List a street's other numbers, below every number match, when it lacks the typed one. */
  readonly nearbyNumbers?: boolean;
}

interface Wants {
  readonly base: Omit<RowQuery, 'isBox'>;
  readonly flex: readonly NumberWant[];
}

interface Candidate {
  readonly group: number;
  readonly score: number;
  readonly fields: number;
  readonly rowQuery: RowQuery;
}

/**
 * Runs a parsed query: words select and rank street-locality groups (the rarest word drives,
 * the others are checked through the forward index), then rows inside the best groups are
 * matched on numbers and kept in a bounded top-k. A first pass allows no typos; only when it
 * finds fewer than `max` results does a second pass add one-typo matches (a letter dropped
 * from a short word included) and tolerate one wrong street type in the named locality, and
 * only when that finds no number does a third add typos in the first letter; so typo
 * neighbours never crowd out an exact answer and cost nothing on ordinary queries. Rows
 * listed for a street that lacks the typed number (`nearbyNumbers`) come after every number
 * match, come only from streets a query word named, and do not count towards skipping the
 * typo pass: "1 Gorge St" still finds George St's 1.
 */
export class AddressSearch {
  readonly #table: AddressTable;
  readonly #index: TermIndex;
  readonly #matcher: WordMatcher;
  readonly #groups: CandidateGroups;
  readonly #slotOfGroup: Uint32Array;
  readonly #rowScore: RowScore = { bonus: 0, number: 'none' };
  readonly #nearby: NearbyNumbers;
  /** Whether the group being scanned had a row matching the query's numbers. */
  #found = false;

  constructor(table: AddressTable, index: TermIndex) {
    this.#table = table;
    this.#index = index;
    this.#matcher = new WordMatcher(index);
    this.#nearby = new NearbyNumbers(table);
    this.#groups = new CandidateGroups(index, table.groups.count);
    this.#slotOfGroup = new Uint32Array(table.groups.count);
    if (table.groups.count >= 2 ** 22) throw new RangeError('more than 4,194,304 street-localities');
  }

  search(query: ParsedQuery, options: SearchOptions): SearchHit[] {
    const hits = this.#search(query, options);
    if (!query.alternative || numberMatches(hits) > 0) return hits;
    const other = this.#search(query.alternative, options);
    return numberMatches(other) > 0 ? other : hits;
  }

  #search(query: ParsedQuery, options: SearchOptions): SearchHit[] {
    const words = wordsOf(query);
    if (words.length === 0) return [];
    let hits = this.#pass(query, words, options, PASS.exact)!;
    if (numberMatches(hits) >= options.max || !words.some(typoable)) return hits;
    hits = merged(hits, this.#pass(query, words, options, PASS.typos), options.max);
    if (numberMatches(hits) > 0) return hits;
    return merged(hits, this.#pass(query, words, options, PASS.firstLetter), options.max);
  }

  /** One pass's hits; null when it would match nothing the previous pass did not (no new term or tolerated type). */
  #pass(query: ParsedQuery, words: QueryWord[], options: SearchOptions, pass: Pass): SearchHit[] | null {
    this.#matcher.reset();
    const expanded = words.map((word, slot) => this.#matcher.expand(slot, word, pass));
    const tolerates = pass === PASS.typos && words.length > 1 && words.some((_, w) => this.#matcher.tolerable(w));
    if (pass !== PASS.exact && !this.#matcher.widened && !tolerates) return null;
    // A street type that may go unmatched drives last: the groups it misses are those it tolerates.
    const cost = (w: number): number =>
      this.#matcher.tolerable(w) ? Number.MAX_VALUE : this.#matcher.cost(expanded[w]!);
    const order = expanded.map((_, w) => w).sort((a, b) => cost(a) - cost(b) || a - b);
    const driver = expanded[order[0]!]!;
    const second = order.length > 1 && cost(order[1]!) <= INTERSECT_COST ? expanded[order[1]!]! : null;
    const drivers = { driver, second, cost: this.#matcher.cost(driver) };
    const candidates = this.#candidates(query, this.#wants(query), words, drivers, options.filters);
    return this.#rows(candidates, options);
  }

  #candidates(
    query: ParsedQuery,
    wants: Wants,
    words: QueryWord[],
    drivers: Drivers,
    filters: SearchFilters,
  ): Candidate[] {
    const { groups } = this.#table;
    const mask = stateMask(filters);
    const out: Candidate[] = [];
    const score: GroupScore = { score: 0, fields: 0 };
    const consider = (group: number): void => {
      if (mask !== 0 && (mask & (1 << groups.state[group]!)) === 0) return;
      const isBox = groups.boxType[group] !== 0;
      if (isBox ? filters.postBox === 'exclude' || !filters.postal : filters.postBox === 'only') return;
      if (!scoreGroup(this.#index, this.#matcher, words.length, group, score)) return;
      const rowQuery = this.#rowQuery(query, wants, group, isBox, score);
      if (rowQuery && placed(score.fields)) out.push({ group, score: score.score, fields: score.fields, rowQuery });
    };
    this.#groups.forEach(query, drivers, consider, () => out.length);
    return byScore(out, this.#slotOfGroup);
  }

  /** Resolves flexible numbers: a matching postcode scores; otherwise it is the street number. */
  #rowQuery(query: ParsedQuery, wants: Wants, group: number, isBox: boolean, score: GroupScore): RowQuery | null {
    const rowQuery: RowQuery = { ...wants.base, isBox };
    for (const [i, flex] of query.flex.entries()) {
      if (/^\d{3,4}$/.test(flex.text) || flex.prefix) {
        if (postcodeMatches(this.#table, group, flex.text, flex.prefix)) {
          score.score += 8;
          score.fields |= MATCHED.postcode;
          continue;
        }
      }
      if (rowQuery.number) return null;
      rowQuery.number = wants.flex[i]!;
    }
    return rowQuery;
  }

  /** Typed numbers resolved to pool ids once per search. */
  #wants(query: ParsedQuery): Wants {
    const t = this.#table;
    return {
      base: {
        number: resolveNumber(t, query.number),
        numberLast: resolveNumber(t, query.numberLast === null ? null : { text: query.numberLast, prefix: false }),
        unit: resolveNumber(t, query.unit),
        level: resolveNumber(t, query.level),
        lot: resolveNumber(t, query.lot),
        levelType: query.levelName ? t.types.find(query.levelName) || -1 : 0,
      },
      flex: query.flex.map((f) => resolveNumber(t, f)!),
    };
  }

  #rows(candidates: readonly Candidate[], options: SearchOptions): SearchHit[] {
    const top: SearchHit[] = [];
    const nearby: SearchHit[] = [];
    const { rowStart } = this.#table.groups;
    this.#nearby.reset();
    for (const c of candidates) {
      if (top.length === options.max && c.score + maxRowBonus(c.rowQuery) <= top[top.length - 1]!.score) break;
      const start = rowStart[c.group]!;
      const end = rowStart[c.group + 1]!;
      const want = c.rowQuery.number;
      this.#found = false;
      const value = want && !want.prefix && !c.rowQuery.isBox ? leadingValue(want) : -1;
      if (value >= 0) {
        const [lotEnd, from, to] = numberWindow(this.#table, start, end, value);
        this.#scan(c, start, lotEnd, options, top);
        this.#scan(c, Math.max(from, lotEnd), to, options, top);
      } else this.#scan(c, start, end, options, top);
      const room = options.max - top.length - nearby.length;
      if (options.nearbyNumbers && want && !this.#found && room > 0 && namedStreet(c))
        this.#addNearby(c, start, end, options, room, nearby);
    }
    return nearby.length === 0 ? top : top.concat(nearby).slice(0, options.max);
  }

  /** Streets come in rank order, so a later street's rows only follow an earlier one's. */
  #addNearby(
    c: Candidate,
    start: number,
    end: number,
    options: SearchOptions,
    room: number,
    nearby: SearchHit[],
  ): void {
    const admit = (row: number): boolean => this.#admits(row, c, options);
    for (const { row, bonus } of this.#nearby.collect(start, end, c.rowQuery, admit, room)) {
      nearby.push({ row, group: c.group, score: c.score + bonus, fields: c.fields, number: 'nearby' });
    }
  }

  /** Filters outside the query text: `canonical=1` drops aliases, a postal-only source drops lots. */
  #admits(row: number, c: Candidate, options: SearchOptions): boolean {
    if (options.filters.canonicalOnly && this.#table.canonical(row) !== row) return false;
    return options.filters.physical || c.rowQuery.isBox || this.#table.rows.strings.numberFirst[row] !== 0;
  }

  #scan(c: Candidate, from: number, to: number, options: SearchOptions, top: SearchHit[]): void {
    for (let row = from; row < to; row++) {
      if (!this.#admits(row, c, options) || !scoreRow(this.#table, row, c.rowQuery, this.#rowScore)) continue;
      this.#found = true;
      const hit = {
        row,
        group: c.group,
        score: c.score + this.#rowScore.bonus,
        fields: c.fields,
        number: this.#rowScore.number,
      };
      insert(top, hit, options.max);
    }
  }
}

/** Hits that matched the typed number (not a street's nearby numbers). */
/**
 * A wider pass's hits added to an earlier pass's: a bounded query (a word naming thousands of
 * streets) may not meet in the wider pass the streets the earlier one found, and what matched
 * exactly scores the same in both. Number matches by score, then streets' nearby numbers.
 */
function merged(earlier: SearchHit[], wider: SearchHit[] | null, max: number): SearchHit[] {
  if (!wider) return earlier;
  const best = new Map<number, SearchHit>();
  for (const hit of [...earlier, ...wider]) {
    const kept = best.get(hit.row);
    if (!kept || (kept.number === 'nearby' && hit.number !== 'nearby') || kept.score < hit.score)
      best.set(hit.row, hit);
  }
  const all = [...best.values()];
  const matches = all.filter((hit) => hit.number !== 'nearby').sort((a, b) => b.score - a.score);
  const nearby = all.filter((hit) => hit.number === 'nearby');
  return matches.concat(nearby).slice(0, max);
}

function numberMatches(hits: readonly SearchHit[]): number {
  let n = 0;
  for (const hit of hits) if (hit.number !== 'nearby') n++;
  return n;
}

/** A wrong street type is tolerated only in the locality or postcode the query named: "85 Lake Road Bondi"
 * finds Lake Street, Bondi; "85 Lake Road" does not list every Lake Street in the country. */
function placed(fields: number): boolean {
  return (fields & MATCHED.wrongType) === 0 || (fields & (MATCHED.locality | MATCHED.postcode)) !== 0;
}

/** A street the query named (not one merely in the named suburb or state), not a box. */
function namedStreet(c: Candidate): boolean {
  return !c.rowQuery.isBox && (c.fields & MATCHED.street) !== 0;
}

/** A query of numbers only ("2112") is looked up as a postcode. */
function wordsOf(query: ParsedQuery): QueryWord[] {
  if (query.words.length > 0) return query.words.slice(0, MAX_WORDS);
  const only = query.flex[0] ?? query.number;
  if (only && /^\d{1,4}$/.test(only.text) && !query.unit && query.flex.length <= 1) {
    query.number = null;
    query.flex.length = 0;
    return [{ text: only.text, alternatives: [], prefix: only.prefix }];
  }
  return [];
}
