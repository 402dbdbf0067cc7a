import type { NumberMatch } from './row-scorer.ts';

/** One row a search found: what search.ts returns and ranking.ts orders (its own module, as search.ts calls ranking). */
export interface SearchHit {
  readonly row: number;
  readonly group: number;
  readonly score: number;
  /** MATCHED bits of the group fields the words hit. */
  readonly fields: number;
  /** `nearby`: the street lacks the typed number; this row is listed instead (autocomplete). */
  readonly number: NumberMatch | 'nearby';
}
