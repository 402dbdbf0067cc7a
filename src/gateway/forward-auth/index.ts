/** Forward-auth: the listener decides for a proxy instead of forwarding (docs/deployment.md). */
export { type CompiledForwardAuth, compileForwardAuth } from './compile.ts';
export { type DescribedRequest, describedRequest, type ProxyKind } from './described.ts';
export { asHeaderValue, relayForNginx } from './nginx-relay.ts';
export { trustedPeers } from './trusted.ts';
