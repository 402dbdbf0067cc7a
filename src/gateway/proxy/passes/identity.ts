import type { VerifiedToken } from '#auth';
import type { HeaderPass, StripPass } from './context.ts';
import { sfDictionary } from './structured-field.ts';

/** Every identity header the gateway sets starts with this; the upstream trusts only ours. */
export const IDENTITY_PREFIX = 'x-tokengate-';

/** Who the verified token says is calling, as one structured field (structured-field.ts). */
export const IDENTITY_HEADER = `${IDENTITY_PREFIX}identity`;

/** A client must not be able to assert an identity: no inbound `x-tokengate-*` header passes. */
export const isInboundIdentity: StripPass = (name) => name.startsWith(IDENTITY_PREFIX);

const built = new WeakMap<VerifiedToken, string>();

/**
 * `client_id="cli_…", project_id="prj_…", scope="address phone", jti="…"`, named after the
 * token's claims. One header, not one per claim: Node's http client validates, lower-cases and
 * stores every outgoing header, about 3,700 instructions each (bench/gateway/instructions.ts), so
 * four of them were the largest single cost of forwarding a bearer request. Built once per
 * verified token: the verifier hands out the same token object for as long as the token is
 * cached, so a reused token's value is a map lookup.
 */
export function identityValue(token: VerifiedToken): string {
  let value = built.get(token);
  if (value === undefined) {
    value = sfDictionary([
      ['client_id', token.clientId],
      ['project_id', token.projectId],
      ['scope', token.scopes.join(' ')],
      ['jti', token.jti],
      // An external issuer's tokens say whose: its client ids are not tokengate's.
      ...(token.issuer === undefined ? [] : ([['issuer', token.issuer]] as const)),
    ]);
    built.set(token, value);
  }
  return value;
}

/** After stripping: who the verified token says is calling. */
export const injectIdentity: HeaderPass = (headers, ctx) => {
  if (ctx.token) headers[IDENTITY_HEADER] = identityValue(ctx.token);
};
