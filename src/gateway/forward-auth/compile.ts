import type { ForwardAuthConfig } from '../config/file/forward-auth.ts';
import type { ProxyKind } from './described.ts';
import { trustedPeers } from './trusted.ts';

/** `forwardAuth` made ready for requests: built once per configuration (generation.ts). */
export interface CompiledForwardAuth {
  readonly proxy: ProxyKind;
  readonly pathPrefix: string | undefined;
  /** Whether a peer address may describe a request. */
  readonly trusted: (address: string | undefined) => boolean;
}

export function compileForwardAuth(config: ForwardAuthConfig | undefined): CompiledForwardAuth | undefined {
  if (config === undefined) return undefined;
  return { proxy: config.proxy, pathPrefix: config.pathPrefix, trusted: trustedPeers(config.trustedProxies) };
}
