export type { Issuer, IssuerConfig, IssuerDeps, SigningKeyInfo, CreatedClient } from './types.ts';
