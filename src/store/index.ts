export type {
  Store,
  StoreOptions,
  Account,
  Project,
  NewProject,
  OAuthClient,
  ClientKeySet,
  ApiKey,
  SigningKey,
  SigningKeyStatus,
  SigningKeyChange,
  Revocation,
  RevocationKind,
  NewRevocation,
  PortalSession,
  ProjectPolicy,
  UsageReport,
  DailyUsage,
  Role,
  User,
  Membership,
  AccountPerson,
  Invitation,
  InvitationState,
  ActivityEntry,
  NewActivity,
} from './types.ts';
export type { StoreChange, StoreChangeKind } from './store-change.ts';
export { openStore } from './open.ts';
export { isWellFormedId } from './ids.ts';
export { StoreError, type StoreErrorCode, StoreUnavailableError } from './errors.ts';
