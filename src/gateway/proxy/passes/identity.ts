import type { HeaderPass, StripPass } from './context.ts';

/** Every identity header the gateway sets starts with this; the upstream trusts only ours. */
export const IDENTITY_PREFIX = 'x-tokengate-';

/** A client must not be able to assert an identity: no inbound `x-tokengate-*` header passes. */
export const isInboundIdentity: StripPass = (name) => name.startsWith(IDENTITY_PREFIX);

/** After stripping: who the verified token says is calling. */
export const injectIdentity: HeaderPass = (headers, ctx) => {
  const token = ctx.token;
  if (!token) return;
  headers['x-tokengate-client-id'] = token.clientId;
  headers['x-tokengate-project-id'] = token.projectId;
  headers['x-tokengate-scopes'] = token.scopes.join(' ');
  headers['x-tokengate-jti'] = token.jti;
};
