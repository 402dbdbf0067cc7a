import type { PreviousSecret } from './previous-secret.ts';

export interface ApiKey {
  key: string;
  projectId: string;
  secretHash: string;
  /** The secret before the last rotation while it is still accepted (or was: compare `validUntil` with now). */
  previousSecret: PreviousSecret | null;
  /** A disabled key's calls are refused until it is enabled again (migration 013). */
  enabled: boolean;
  createdAt: number;
}

/** The projects' API keys (key/secret calls). A change is announced to every replica (onChange, kind `api_key`). */
export interface ApiKeyStore {
  createApiKey(input: { projectId: string; secretHash: string }): Promise<ApiKey>;
  getApiKey(key: string): Promise<ApiKey | null>;
  /** Disables or enables the key; every replica sees it at once. Null for an unknown key. */
  setApiKeyEnabled(key: string, enabled: boolean): Promise<ApiKey | null>;
  /** Deletes the key; every replica stops accepting it at once. Null if there was none. */
  deleteApiKey(key: string): Promise<ApiKey | null>;
  /** A project's API keys, oldest first (the account portal lists them). */
  listApiKeys(projectId: string): Promise<ApiKey[]>;
}
