import type { HeaderPass } from './context.ts';

/**
 * `X-Forwarded-For` gets the peer address appended (the last entry is the one this gateway
 * saw; earlier ones are whatever the client claimed). Proto and Host are what this hop saw,
 * replacing any inbound value.
 */
export const setForwarded: HeaderPass = (headers, ctx) => {
  const prior = headers['x-forwarded-for'];
  const chain = Array.isArray(prior) ? prior.join(', ') : prior;
  headers['x-forwarded-for'] = chain ? `${chain}, ${ctx.remoteAddress}` : ctx.remoteAddress;
  headers['x-forwarded-proto'] = ctx.encrypted ? 'https' : 'http';
  if (headers.host) headers['x-forwarded-host'] = headers.host;
  else delete headers['x-forwarded-host'];
};
