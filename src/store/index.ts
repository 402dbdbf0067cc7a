export type { Store, StoreOptions } from './types.ts';
export type { Account, AccountStore } from './repositories/accounts.ts';
export type { NewProject, Project, ProjectStore } from './repositories/projects.ts';
export type { ClientKeySet, ClientStore, OAuthClient } from './repositories/clients.ts';
export type { UsedJtiStore } from './repositories/used-jtis.ts';
export type { ApiKey, ApiKeyStore } from './repositories/api-keys.ts';
export type { SigningKey, SigningKeyChange, SigningKeyStatus, SigningKeyStore } from './repositories/signing-keys.ts';
export type { NewRevocation, Revocation, RevocationKind, RevocationStore } from './repositories/revocations.ts';
export type { ChangeFeed } from './repositories/changes.ts';
export type {
  NewSessionOptions,
  PortalSession,
  PortalSessionStore,
  SessionListing,
} from './repositories/portal-sessions.ts';
export type { AccountPerson, Membership, PeopleStore, Role, User } from './repositories/people.ts';
export type { Invitation, InvitationState, InvitationStore } from './repositories/invitations.ts';
export type {
  KeyProject,
  PolicyChanges,
  PolicyCursor,
  ProjectPolicy,
  RateLimitStore,
} from './repositories/rate-limits.ts';
export type { DailyUsage, UsageReport, UsageStore } from './repositories/usage.ts';
export type { PreviousSecret } from './repositories/previous-secret.ts';
export type { SecretStore } from './repositories/secrets.ts';
export type { ActivityEntry, ActivityStore, NewActivity } from './repositories/activity.ts';
export type {
  ChallengePurpose,
  NewChallenge,
  NewPasskey,
  Passkey,
  PasskeyStore,
} from './repositories/passkeys.ts';
export type {
  SecondFactor,
  SecondFactorState,
  SecondFactorStore,
  TotpFactor,
} from './repositories/second-factors.ts';
export type { StoreChange, StoreChangeKind } from './store-change.ts';
export { openStore } from './open.ts';
export { isWellFormedId } from './ids.ts';
export { StoreError, type StoreErrorCode, StoreUnavailableError } from './errors.ts';
