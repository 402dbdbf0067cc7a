/** A passkey as a sign-in checks it: its WebAuthn credential and the counter it last signed with. */
export interface Passkey {
  /** The factor's id (the list's, removal's). */
  id: string;
  userId: string;
  /** The credential id, base64url. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  signCount: number;
  transports: string[];
}

export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: readonly string[];
  label: string;
}

export type ChallengePurpose = 'register' | 'second_step' | 'sign_in';

export interface NewChallenge {
  challenge: string;
  purpose: ChallengePurpose;
  /** A digest of what asked for it (hex SHA-256): the session's label, or the sign-in form's nonce. */
  binding: string;
  /** The person it is for; null for a sign-in without a password (the credential names the person). */
  userId: string | null;
  expiresAt: number;
}

/**
 * People's passkeys (WebAuthn credentials) and the challenges they sign. The list, removal and the
 * operator's reset of factors are the second-factor store's: a passkey is a factor like TOTP.
 */
export interface PasskeyStore {
  /**
   * Adds a confirmed passkey; with `recoveryCodeHashes`, the person's recovery codes are replaced
   * by these. StoreError `conflict` when the credential is registered already. Returns its id.
   */
  addPasskey(userId: string, passkey: NewPasskey, recoveryCodeHashes?: readonly string[]): Promise<string>;
  listPasskeys(userId: string): Promise<Passkey[]>;
  findPasskey(credentialId: string): Promise<Passkey | null>;
  /**
   * Takes the counter an assertion signed with: true when it is above the one stored (or both are
   * 0, an authenticator without a counter), in one statement, so an assertion counts once on every replica.
   */
  acceptPasskeyCounter(factorId: string, signCount: number): Promise<boolean>;
  /** Stores a challenge (and forgets expired ones). */
  addPasskeyChallenge(challenge: NewChallenge): Promise<void>;
  /** Takes (deletes) a live challenge of this purpose, binding and person: true once. */
  takePasskeyChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    binding: string,
    userId: string | null,
  ): Promise<boolean>;
}
