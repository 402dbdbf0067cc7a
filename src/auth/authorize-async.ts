import type { AuthDecision, DpopRequest, RouteRequirement, Verifier } from './types.ts';

/**
 * The way an embedder consumes the plugin: always a promise of a decision, whatever path the
 * verifier took. `verifier.authorize` itself answers synchronously when it can (cache hits and
 * every refusal before the signature check) and with a promise only for an unknown `kid` or with
 * `batchSignatureChecks` (README.md, "When `authorize` returns a promise"); a host that counts
 * microseconds per request, as the gateway does, may call it directly and keep that fast path.
 * Never rejects: `authorize` does not throw and its promise does not reject.
 */
export async function authorizeAsync(
  verifier: Pick<Verifier, 'authorize'>,
  authorization: string | undefined,
  requirement: RouteRequirement,
  request?: DpopRequest,
): Promise<AuthDecision> {
  return verifier.authorize(authorization, requirement, request);
}
