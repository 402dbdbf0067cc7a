import type { RemoteKeySetOptions } from '#auth';
import type { GatewayConfig } from '../config/gateway-config.ts';

type KeySetSettings = GatewayConfig['issuer']['keySet'];

/** A `keySet:` section of gateway.yaml (the own issuer's or an external one's) as key-set options. */
export function keySetOptions(
  keySet: KeySetSettings,
): Pick<RemoteKeySetOptions, 'fetchTimeoutMs' | 'minMaxAgeSec' | 'maxMaxAgeSec' | 'cooldownSec' | 'maxStaleSec'> {
  return {
    fetchTimeoutMs: keySet.fetchTimeoutMs,
    minMaxAgeSec: keySet.minRefreshSec,
    maxMaxAgeSec: keySet.maxRefreshSec,
    cooldownSec: keySet.cooldownSec,
    maxStaleSec: keySet.maxStaleSec,
  };
}
