import { BlockList, isIP } from 'node:net';

/** Loopback: where the local stack's gateway connects from. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['127.0.0.1', '::1'];

/** Whether a socket peer is a proxy whose `X-Forwarded-For` is believed. */
export type TrustedProxies = (peer: string) => boolean;

interface Entry {
  readonly address: string;
  readonly prefix: number | undefined;
  readonly type: 'ipv4' | 'ipv6';
}

/** `10.1.2.3`, `10.0.0.0/8`, `::1` or `fd00::/8`; undefined for anything else. */
function parseEntry(entry: string): Entry | undefined {
  const [address = '', prefix, ...extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return undefined;
  if (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)))
    return undefined;
  return { address, prefix: prefix === undefined ? undefined : Number(prefix), type: family === 4 ? 'ipv4' : 'ipv6' };
}

/** The first entry that is neither an IP address nor a CIDR, if any (for configuration messages). */
export function invalidTrustedProxy(entries: readonly string[]): string | undefined {
  return entries.find((entry) => parseEntry(entry) === undefined);
}

/**
 * The matcher for a list of addresses and CIDRs. An IPv4 entry also matches its IPv4-mapped IPv6
 * form (`::ffff:10.1.2.3`, a peer of a dual-stack listener). Misuse throws a TypeError at start-up.
 */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const bad = invalidTrustedProxy(entries);
  if (bad !== undefined) throw new TypeError(`trustedProxies: ${JSON.stringify(bad)} is not an IP address or CIDR`);
  const list = new BlockList();
  for (const { address, prefix, type } of entries.map((entry) => parseEntry(entry) as Entry)) {
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return (peer) => {
    const family = isIP(peer);
    return family !== 0 && list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
  };
}
