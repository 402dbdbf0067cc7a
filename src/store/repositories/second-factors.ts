/** A confirmed second factor of a person, as their list shows it (never its secret). */
export interface SecondFactor {
  id: string;
  kind: 'totp' | 'passkey';
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A confirmed TOTP factor as the sign-in checks it: its secret and the step of the last code accepted. */
export interface TotpFactor {
  id: string;
  secret: string;
  lastStep: number | null;
}

/** What the portal needs on every request of a person: do they have a factor, does an account of theirs require one. */
export interface SecondFactorState {
  factors: number;
  required: boolean;
}

/**
 * People's second factors (TOTP and passkeys), their recovery codes and the accounts' "require 2FA" rule.
 * Nothing here is cached by a replica: every request reads the store, so a change holds everywhere at once.
 */
export interface SecondFactorStore {
  /** The person's unconfirmed TOTP factor created after `sinceMs`, or null. */
  getPendingTotp(userId: string, sinceMs: number): Promise<TotpFactor | null>;
  /** Replaces the person's unconfirmed TOTP factor with a new one of this secret; returns its id. */
  addPendingTotp(userId: string, secret: string): Promise<string>;
  /**
   * Confirms the factor with the step of the code typed (which it may not accept again); with
   * `recoveryCodeHashes`, the person's recovery codes are replaced by these. False when it is gone.
   */
  confirmTotp(
    userId: string,
    factorId: string,
    label: string,
    step: number,
    recoveryCodeHashes?: readonly string[],
  ): Promise<boolean>;
  listFactors(userId: string): Promise<SecondFactor[]>;
  listTotpFactors(userId: string): Promise<TotpFactor[]>;
  /** Accepts a code of `step` for the factor unless one of that step or a later one was: true once per step, on every replica. */
  acceptTotpStep(factorId: string, step: number): Promise<boolean>;
  /** Uses the recovery code with this digest; true once. */
  useRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): Promise<void>;
  /** Recovery codes not used yet. */
  countRecoveryCodes(userId: string): Promise<number>;
  /**
   * Removes a confirmed factor; the last one takes the recovery codes with it. StoreError
   * `last_factor` when it is the last and an account of the person requires 2FA. False when none.
   */
  removeFactor(userId: string, factorId: string): Promise<boolean>;
  /** Removes every factor and recovery code of the person; returns how many factors. */
  resetFactors(userId: string): Promise<number>;
  /** Null when there is no such account. */
  setAccountRequire2fa(accountId: string, required: boolean): Promise<boolean | null>;
  getAccountRequire2fa(accountId: string): Promise<boolean | null>;
  secondFactorState(userId: string): Promise<SecondFactorState>;
}
