export type {
  Store,
  StoreOptions,
  Project,
  OAuthClient,
  ApiKey,
  SigningKey,
  SigningKeyStatus,
  Revocation,
  RevocationKind,
  NewRevocation,
} from './types.ts';
