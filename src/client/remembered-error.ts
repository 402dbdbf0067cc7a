import { TokenEndpointError, TokenRequestError } from './errors.ts';

/**
 * What a call gets while a failed token request is remembered: a new error of the same class
 * with the same fields (a check for `error === 'invalid_client'` holds), whose message says it is
 * remembered and whose `cause` is the error the request failed with. A new object per call, so
 * what one caller adds to it or does with its stack reaches no other.
 */
export function rememberedError(original: unknown, ageMs: number, leftMs: number): unknown {
  const note = `; remembered from the token request ${seconds(ageMs)} s ago, no new one for ${seconds(leftMs)} s`;
  if (original instanceof TokenEndpointError) {
    const { status, error, errorDescription, retryAfterMs } = original;
    const copy = new TokenEndpointError(status, error, errorDescription, { retryAfterMs, cause: original });
    copy.message += note;
    return copy;
  }
  if (original instanceof TokenRequestError) {
    const { status, retryAfterMs } = original;
    return new TokenRequestError(original.kind, original.message + note, { status, retryAfterMs, cause: original });
  }
  return original;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
