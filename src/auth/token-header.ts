import { isSupportedAlgorithm, type SupportedAlgorithm } from './algorithms.ts';
import { type CompactJws, parseCompact } from './compact.ts';
import { describeValue } from './describe.ts';
import { fail } from './failure.ts';
import type { AuthFailure } from './types.ts';

/** A token that passed the checks made before any key is looked up. */
export interface HeaderChecked {
  readonly ok: true;
  readonly jws: CompactJws;
  readonly alg: SupportedAlgorithm;
  readonly kid: string;
}

/**
 * What every JWS path of the verifiers checks before it looks for a key: the compact form, an
 * `alg` among the pinned ones, a `kid` of sane length, and the issuer's own header rules
 * (`typ`, `crit`, …). Each failure is for good: callers keep it in their negative cache.
 */
export function checkTokenHeader(
  raw: string,
  headerMemo: Map<string, Record<string, unknown>>,
  pinned: ReadonlySet<string>,
  headerRules: (header: Record<string, unknown>) => AuthFailure | undefined,
): HeaderChecked | AuthFailure {
  const parsed = parseCompact(raw, headerMemo);
  if (!parsed.ok) return parsed;
  const { jws } = parsed;
  const { alg, kid } = jws.header;
  if (typeof alg !== 'string' || !isSupportedAlgorithm(alg) || !pinned.has(alg))
    return fail('invalid_token', `alg ${describeValue(alg, 20)} not pinned`);
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 256) return fail('invalid_token', 'kid missing');
  const bad = headerRules(jws.header);
  if (bad !== undefined) return bad;
  return { ok: true, jws, alg, kid };
}
