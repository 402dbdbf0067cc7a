import type { StateCode } from './vocabulary.ts';

/**
 * The shape the national generator reproduces, at full size. Sources and assumptions:
 *
 * - Addresses: G-NAF February 2024 holds 15,608,317 addresses, 14,779,189 (94.69 %) of them
 *   principal, so 829,128 (5.31 %) aliases (Geoscape, "G-NAF February 2024 release report",
 *   docs.geoscape.com.au/projects/gnaf_release/en/feb-2024, Overview).
 * - Street-localities and localities: the release report does not give its table row counts
 *   and no copy of them was found; we take the order of magnitude issue 27 states (at least
 *   600,000 street-localities; about 16,000 localities, in line with Geoscape's National
 *   Localities product of gazetted suburbs) and aim at about 700,000 street-localities.
 * - Per state: the shares of localities and addresses below are our approximation of each
 *   state's share of the population and of its gazetted localities; they are not taken from a
 *   G-NAF table.
 */
export const GNAF_ADDRESSES = 15_608_317;
export const GNAF_ALIAS_SHARE = 0.0531;
export const NATIONAL_LOCALITIES = 16_000;
/** Mean addresses per street-locality: 15.6 M over about 700,000. */
export const MEAN_STREET_SIZE = 22;

export interface StatePlan {
  /** Localities at full size. */
  readonly localities: number;
  /** Share of the nation's addresses. */
  readonly addresses: number;
  /** Australia Post postcode ranges, inclusive. */
  readonly postcodes: readonly (readonly [number, number])[];
}

export const STATE_PLAN: Readonly<Record<StateCode, StatePlan>> = {
  NSW: {
    localities: 4_700,
    addresses: 0.318,
    postcodes: [
      [2000, 2599],
      [2619, 2898],
      [2921, 2999],
    ],
  },
  VIC: { localities: 3_000, addresses: 0.262, postcodes: [[3000, 3999]] },
  QLD: { localities: 3_200, addresses: 0.2, postcodes: [[4000, 4999]] },
  WA: { localities: 1_650, addresses: 0.097, postcodes: [[6000, 6797]] },
  SA: { localities: 1_750, addresses: 0.069, postcodes: [[5000, 5799]] },
  TAS: { localities: 1_200, addresses: 0.026, postcodes: [[7000, 7799]] },
  ACT: {
    localities: 140,
    addresses: 0.0155,
    postcodes: [
      [2600, 2618],
      [2900, 2920],
    ],
  },
  NT: { localities: 330, addresses: 0.0064, postcodes: [[800, 899]] },
  OT: {
    localities: 30,
    addresses: 0.0004,
    postcodes: [
      [2540, 2540],
      [2899, 2899],
      [6798, 6799],
    ],
  },
};

export function inPostcodeRange(state: StateCode, postcode: number): boolean {
  return STATE_PLAN[state].postcodes.some(([lo, hi]) => postcode >= lo && postcode <= hi);
}
