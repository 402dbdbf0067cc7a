import { extractBearer } from '../extractor.ts';
import { fail } from '../failure.ts';
import type { AuthDecision, DpopRequest, RouteRequirement, Verifier } from '../types.ts';
import type { ExternalVerifier } from './types.ts';
import { unverifiedIssuer } from './unverified-issuer.ts';

/** A route's token check: the own verifier's `authorize`, or one that first picks the issuer. */
export type Authorize = (
  authorization: string | undefined,
  requirement: RouteRequirement,
  request?: DpopRequest,
) => AuthDecision | Promise<AuthDecision>;

export interface IssuerDispatchOptions {
  /** The name routes give the own issuer, its `iss`, and its verifier (revocation, DPoP, 1025). */
  readonly own: { readonly name: string; readonly issuer: string; readonly verifier: Verifier };
  readonly external: readonly ExternalVerifier[];
  readonly maxTokenLength?: number;
}

export interface IssuerDispatch {
  /**
   * The check of a route accepting these issuers, built once per route at load. A route of the
   * own issuer alone gets the own verifier as it is: it pays nothing for the others.
   */
  forIssuers(names: readonly string[]): Authorize;
}

type Target = ExternalVerifier | 'own';

/** RFC 6750 §2.1 b64token: what an opaque bearer token may be made of. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Several issuers on one route. The token's `iss`, read from the unverified payload, only picks
 * whose keys and rules check it; that issuer's verifier then checks everything, `iss` included.
 * An `iss` the route does not accept is refused before any key is looked up, so issuer A's
 * tokens never meet issuer B's keys and a junk `iss` spends no unknown-kid budget.
 */
export function createIssuerDispatch(options: IssuerDispatchOptions): IssuerDispatch {
  const { own } = options;
  const maxTokenLength = options.maxTokenLength ?? 8192;
  const byName = new Map(options.external.map((verifier) => [verifier.name, verifier]));
  const ownOnly: Authorize = (authorization, requirement, request) =>
    own.verifier.authorize(authorization, requirement, request);

  function targetsOf(names: readonly string[]): Map<string, Target> {
    const targets = new Map<string, Target>();
    for (const name of names) {
      if (name === own.name) {
        targets.set(own.issuer, 'own');
        continue;
      }
      const verifier = byName.get(name);
      if (verifier === undefined) throw new TypeError(`unknown issuer "${name}"`);
      targets.set(verifier.issuer, verifier);
    }
    return targets;
  }

  return {
    forIssuers(names) {
      if (names.length === 1 && names[0] === own.name) return ownOnly;
      const targets = targetsOf(names);
      const ownAccepted = names.includes(own.name);
      // The one issuer of the route that introspects tokens that are not JWTs (check-config allows one).
      const opaque = [...targets.values()].find(
        (t): t is ExternalVerifier => t !== 'own' && t.verifyOpaque !== undefined,
      );
      return (authorization, requirement, request) => {
        const raw = extractBearer(authorization, maxTokenLength, false);
        // No Bearer token (none, DPoP, another scheme): only the own verifier knows more.
        if (typeof raw !== 'string') return ownAccepted ? ownOnly(authorization, requirement, request) : raw;
        const iss = unverifiedIssuer(raw);
        if (iss === undefined && opaque?.verifyOpaque !== undefined && B64TOKEN.test(raw))
          return opaque.verifyOpaque(raw, requirement);
        const target = iss === undefined ? undefined : targets.get(iss);
        if (target === undefined) return fail('invalid_token', iss === undefined ? 'no iss' : 'iss not accepted here');
        return target === 'own' ? ownOnly(authorization, requirement, request) : target.verify(raw, requirement);
      };
    },
  };
}
