import { STATE_CODES, type StateCode } from '../data/vocabulary.ts';

/** What a request narrows the data set to (autocomplete and verification parameters). */
export interface SearchFilters {
  /** Allowed states; null = all. */
  readonly states: ReadonlySet<StateCode> | null;
  /** `post_box`: include (omitted), exclude (0), only (1). */
  readonly postBox: 'include' | 'exclude' | 'only';
  /** `canonical=1`: leave out alias addresses. */
  readonly canonicalOnly: boolean;
  /** `source`/`gnaf`/`paf`: physical (G-NAF) and/or postal (PAF, which alone holds boxes). */
  readonly physical: boolean;
  readonly postal: boolean;
}

export const NO_FILTERS: SearchFilters = {
  states: null,
  postBox: 'include',
  canonicalOnly: false,
  physical: true,
  postal: true,
};

/** State filter as a bit mask over STATE_CODES indexes (0 = every state). */
export function stateMask(filters: SearchFilters): number {
  if (!filters.states) return 0;
  let mask = 0;
  for (const code of filters.states) mask |= 1 << STATE_CODES.indexOf(code);
  return mask;
}
