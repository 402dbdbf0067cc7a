import type { ApiKey } from './api-keys.ts';
import type { OAuthClient } from './clients.ts';

/**
 * Rotating and retiring the secrets of clients and API keys. Each change is one statement (the
 * current secret becomes the previous one, the new one current), so a client never has more than
 * two valid secrets, and is announced to every replica like any other change of the record
 * (onChange, kind `client` or `api_key`).
 */
export interface SecretStore {
  /**
   * The client's new secret hash; its current one stays valid until `previousValidUntil`, or stops
   * at once when that is null. A previous secret it had is dropped. Null when there is no such
   * client or it has no secret (private_key_jwt).
   */
  rotateClientSecret(
    clientId: string,
    secretHash: string,
    previousValidUntil: number | null,
  ): Promise<OAuthClient | null>;
  /** Ends the client's previous secret now (if it had one); null as for a rotation. */
  retireClientSecret(clientId: string): Promise<OAuthClient | null>;
  /** As `rotateClientSecret`, for an API key; null for an unknown key. */
  rotateApiKeySecret(key: string, secretHash: string, previousValidUntil: number | null): Promise<ApiKey | null>;
  /** Ends the key's previous secret now (if it had one); null for an unknown key. */
  retireApiKeySecret(key: string): Promise<ApiKey | null>;
}
