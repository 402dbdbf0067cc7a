import { BlockList, isIP } from 'node:net';

/**
 * The addresses a proxy may call from (`forwardAuth.trustedProxies`), as Node's BlockList: one
 * lookup per request, IPv4-mapped IPv6 peers (`::ffff:10.0.0.7`) matched against IPv4 blocks.
 * The entries were checked by the schema (config/file/forward-auth.ts).
 */
export function trustedPeers(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (address === undefined) return false;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
