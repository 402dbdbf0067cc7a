import type { IncomingMessage } from 'node:http';
import { remoteAddress } from '#common';
import type { TrustedProxies } from './trusted-proxies.ts';

/**
 * The address failures are counted against. Behind the gateway every request comes from the
 * gateway, so when the socket peer is a trusted proxy the last `X-Forwarded-For` hop (the one
 * that proxy appended) is used; otherwise the socket address. Never a client-chosen hop: only
 * one hop is believed, even when it is itself a trusted address.
 */
export function sourceAddress(req: IncomingMessage, trusted: TrustedProxies): string {
  const peer = remoteAddress(req);
  if (!trusted(peer)) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded.at(-1) : forwarded;
  const last = header?.split(',').at(-1)?.trim();
  return last && last.length <= 64 ? last : peer;
}
