import { DEFAULT_LIFETIME_SEC, MAX_LIFETIME_SEC } from '../limits.ts';
import { OAuthError } from './oauth-error.ts';

export interface Lifetime {
  readonly seconds: number;
  /** True when the request asked for more than the maximum and got the maximum. */
  readonly capped: boolean;
}

/** Plain decimal digits without a leading zero: no sign, fraction, exponent, hex or spaces. */
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** `expires_in`: absent → 900; 1..3600 as asked; above 3600 → 3600 (capped); anything else → 400. */
export function grantLifetime(requested: string | undefined): Lifetime {
  if (requested === undefined) return { seconds: DEFAULT_LIFETIME_SEC, capped: false };
  if (!POSITIVE_INTEGER.test(requested)) {
    throw new OAuthError('invalid_request', `expires_in must be an integer from 1 to ${MAX_LIFETIME_SEC}`);
  }
  // Long digit strings are huge numbers: capped like any value above the maximum.
  if (requested.length > 4 || Number(requested) > MAX_LIFETIME_SEC) return { seconds: MAX_LIFETIME_SEC, capped: true };
  return { seconds: Number(requested), capped: false };
}
