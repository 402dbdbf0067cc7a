/** Where a person who must have a second factor is sent, under the portal's base. */
export const TWO_FACTOR_SETUP_PATH = '/settings/two-factor/totp';
/** The second step of a sign-in. */
export const SECOND_STEP_PATH = '/login/second-factor';
/** The person's factors and recovery codes. */
export const TWO_FACTOR_PATH = '/settings/two-factor';
/** Adding a passkey (also open to a person who must set up a second factor first). */
export const PASSKEY_SETUP_PATH = '/settings/two-factor/passkey';
/** Signing in with a passkey instead of the password. */
export const PASSKEY_SIGN_IN_PATH = '/login/passkey';
