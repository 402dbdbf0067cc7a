import type { IncomingMessage } from 'node:http';
import { remoteAddress } from '#common';

/** Loopback: where the local stack's gateway connects from. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

/**
 * The address failures are counted against. Behind the gateway every request comes from the
 * gateway, so when the socket peer is a trusted proxy the last `X-Forwarded-For` hop (the one
 * that proxy appended) is used; otherwise the socket address. Never a client-chosen hop.
 */
export function sourceAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = remoteAddress(req);
  if (!trustedProxies.has(peer)) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded.at(-1) : forwarded;
  const last = header?.split(',').at(-1)?.trim();
  return last && last.length <= 64 ? last : peer;
}
