export type SigningKeyStatus = 'next' | 'active' | 'retired';

export interface SigningKey {
  kid: string;
  alg: string;
  status: SigningKeyStatus;
  /** Public JWK (public members only), as published in the key set. */
  publicJwk: Record<string, unknown>;
  /** Private JWK serialised as JSON, or an encrypted envelope when KEY_ENCRYPTION_KEY is set. */
  privateKey: string;
  createdAt: number;
  activatedAt: number | null;
  retiredAt: number | null;
}

/** One key's part of a rotation. */
export interface SigningKeyChange extends Pick<SigningKey, 'kid' | 'status' | 'activatedAt' | 'retiredAt'> {
  /** The status the key must still have for the change to apply (its status when the rotation read it). */
  readonly from?: SigningKeyStatus | undefined;
}

/** The issuer's signing keys. A change is announced to every replica (onChange, kind `signing_keys`). */
export interface SigningKeyStore {
  listSigningKeys(): Promise<SigningKey[]>;
  insertSigningKey(key: SigningKey): Promise<void>;
  /**
   * Applies status changes atomically (rotation moves several keys at once). A change with `from`
   * applies only while the key still has that status; otherwise nothing changes (StoreError
   * `signing_keys_changed`: a concurrent rotation got there first).
   */
  updateSigningKeys(changes: SigningKeyChange[]): Promise<void>;
  deleteSigningKey(kid: string): Promise<void>;
}
