export type { Actor, PersonActor } from './actor.ts';
export { ACTIVITY_LIMIT } from './account-activity.ts';
export { recordInvitationAccepted, recordPersonAction, recordSignIn } from './activity.ts';
export { isOperator, roleIn } from './access.ts';
export { type InviteInput, inviteInput, ROLES, type RoleInput, roleInput } from './input/people.ts';
export { isEmail, normalEmail } from './people/email.ts';
export type { CreatedInvitation } from './people/members.ts';
export type { AcceptInvitationInput, PasswordAttempts, UnusableInvitation } from './people/invitation-accept.ts';
export type { NewPassword, NoPerson, PasswordRefusal } from './people/own-password.ts';
export { checkSecondFactor, type SecondFactorPassed } from './people/second-factor-check.ts';
export { checkPasskey, type PasskeyPassed } from './people/passkey-check.ts';
export { type PasskeyDeps, passkeyRequestOptions } from './people/passkey-challenge.ts';
export { CREDENTIAL_JSON_MAX_LENGTH, readAuthenticationJson, readRegistrationJson } from './people/passkey-json.ts';
export { type RelyingParty, relyingParty } from './people/passkey-rp.ts';
export { CODE_MAX_LENGTH, RECOVERY_CODE_COUNT } from './people/second-factor-codes.ts';
export { type ConfirmedTotp, FACTOR_LABEL_MAX_LENGTH, type TotpSetup } from './people/second-factor-enrol.ts';
export type { OwnFactors } from './people/second-factor-list.ts';
export type { AccountTwoFactor, ResetTwoFactor } from './people/second-factor-policy.ts';
export { requireTwoFactorInput, resetTwoFactorInput } from './input/second-factor.ts';
export {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  verifyPassword,
} from './people/password.ts';
export {
  ADMIN_OPERATIONS,
  type AdminClient,
  type AdminTransport,
  createAdminClient,
  type Operation,
  type OperationName,
  type View,
} from './contract/index.ts';
export { type AddressImport, type ImportProgress, type ImportSummary, importAddressData } from './addresses.ts';
export type { CreatedApiKey } from './api-keys.ts';
export type { NewClient } from './clients.ts';
export type { AdminContext, AdminStore } from './context.ts';
export { ADMIN_ERRORS, AdminError, type AdminErrorKind } from './errors.ts';
export {
  type CreateClientInput,
  type CreateProjectInput,
  createClientInput,
  createProjectInput,
  type RevokeTokenInput,
  type RotateKeysInput,
  revokeTokenInput,
  rotateKeysInput,
  type SetClientDpopInput,
  type SetClientKeysInput,
  setClientDpopInput,
  setClientKeysInput,
} from './input/operations.ts';
export {
  type AccountPlanInput,
  type AccountProjectInput,
  accountPlanInput,
  accountProjectInput,
  type CreateAccountInput,
  createAccountInput,
} from './input/account.ts';
export { type ClientAuthMethod, clientAuthMethod, MAX_CLIENT_KEYS } from './input/jwks.ts';
export { parseInput } from './input/parse.ts';
export { type RotateSecretInput, rotateSecretInput } from './input/secret-rotation.ts';
export { type Month, monthSchema, type SetLimitsInput, setLimitsInput } from './input/limits.ts';
export type { ProjectLimits, ProjectUsage } from './rate-limits.ts';
export { type AdminService, createAdminService } from './service.ts';
