export type { Issuer, IssuerConfig, IssuerDeps, IssuerStore, SigningKeyInfo, CreatedClient } from './types.ts';
export { createIssuer } from './create-issuer.ts';
export { ClientRevocationError, IssuerInputError, RotationTooEarlyError } from './issuer-errors.ts';
export { KeyEncryptionError } from './keys/key-errors.ts';
export { invalidTrustedProxy } from './oauth/trusted-proxies.ts';
export { feedAuthorized } from './revocation/feed-auth.ts';
