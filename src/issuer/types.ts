import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DpopNonceMode, KeyResolver, RevocationChecker } from '#auth';
import type { Clock, Logger, Scope } from '#common';
import type {
  ChangeFeed,
  ClientKeySet,
  ClientStore,
  OAuthClient,
  ProjectStore,
  RevocationStore,
  SigningKeyStore,
  UsedJtiStore,
} from '#store';

/**
 * Contract between the issuer and its hosts (the upstream server, the admin API, the CLI).
 */
export interface IssuerConfig {
  /** `iss` of every token and base of every metadata URL (PUBLIC_URL). */
  readonly issuer: string;
  /** `aud` of every token; default: the issuer URL. */
  readonly audience: string;
  /** Signing algorithm of new keys: RS256 (default), ES256 or EdDSA. */
  readonly algorithm: 'RS256' | 'ES256' | 'EdDSA';
  /** KEY_ENCRYPTION_KEY: when set, private keys are encrypted at rest. */
  readonly keyEncryptionKey?: string | undefined;
  /** Secret gateways present to read the revocation feed. */
  readonly feedToken: string;
  /**
   * Socket addresses or CIDRs whose last `X-Forwarded-For` hop is believed when counting failed
   * client authentications per source address (the gateway; TRUSTED_PROXIES). Default: loopback.
   */
  readonly trustedProxies?: readonly string[] | undefined;
  /**
   * Server nonces for DPoP proofs at the token endpoint (RFC 9449 §8; DPOP_NONCE,
   * DPOP_NONCE_SECRET). Default off. Without a secret, one random per process.
   */
  readonly dpopNonce?: { readonly mode: DpopNonceMode; readonly secret?: string | undefined } | undefined;
  /**
   * The operator's admin token: the introspection endpoint accepts it as `Authorization: Bearer`
   * from loopback. Unset, only clients with the introspect permission may introspect.
   */
  readonly adminToken?: string | undefined;
}

export interface SigningKeyInfo {
  kid: string;
  alg: string;
  status: 'next' | 'active' | 'retired';
  createdAt: string;
  activatedAt: string | null;
  retiredAt: string | null;
  /** When a retired key leaves the key set (every token it signed has expired). */
  removeAfter: string | null;
  /** For the next key: from when a rotation may make it sign (it has been published long enough). */
  promotableAt: string | null;
}

export interface CreatedClient {
  client: OAuthClient;
  /** Shown once; only its hash is stored. */
  clientSecret: string;
}

export interface Issuer {
  /** Handles the issuer's public routes; resolves false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Handles the gateway revocation feed (`GET /internal/revocations?cursor=N&wait=S`). */
  handleFeed(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /** `requireDpop`: its token requests must carry a DPoP proof (RFC 9449). */
  createClient(input: {
    projectId: string;
    name: string;
    scopes: Scope[];
    requireDpop?: boolean;
    /** It may call the introspection endpoint (RFC 7662). */
    introspect?: boolean;
  }): Promise<CreatedClient>;
  /** A private_key_jwt client (RFC 7523): it proves itself with these public keys and has no secret. */
  createKeyClient(input: {
    projectId: string;
    name: string;
    scopes: Scope[];
    jwks: ClientKeySet;
    requireDpop?: boolean;
    introspect?: boolean;
  }): Promise<OAuthClient>;
  /**
   * Makes the client's token requests need a DPoP proof, or not; null for an unknown client. Other
   * replicas see it once their cached record expires (CLIENT_CACHE_TTL_MS).
   */
  setClientRequireDpop(clientId: string, required: boolean): Promise<OAuthClient | null>;
  /**
   * Replaces a private_key_jwt client's public keys; null when there is no such client or it uses
   * a secret. Every replica reads the keys from the store for each assertion, so it counts at once.
   */
  setClientJwks(clientId: string, jwks: ClientKeySet): Promise<OAuthClient | null>;
  /** Disabling revokes every outstanding token of the client. */
  setClientEnabled(clientId: string, enabled: boolean): Promise<OAuthClient | null>;
  /**
   * Revokes every outstanding token of the client without disabling it (a disabled account: its
   * clients are refused at the token endpoint by the account's state, not their own).
   */
  revokeClientTokens(clientId: string): Promise<void>;
  /** Accepts a compact JWT (its jti is read after checking our signature) or a bare jti. */
  revokeToken(jwtOrJti: string): Promise<void>;

  listKeys(): Promise<SigningKeyInfo[]>;
  /**
   * Promotes the next key. Refused with RotationTooEarlyError until the next key has been published
   * for the key set's max-age plus a margin, unless `now` (an emergency rotation).
   */
  rotateKeys(options?: { now?: boolean }): Promise<{ kid: string }>;

  /** Local verification sources for the plugin in the upstream (defence in depth). */
  readonly keyResolver: KeyResolver;
  readonly revocationChecker: RevocationChecker;

  close(): Promise<void>;
}

/** The repositories the issuer reads and writes (never the accounts, people or API keys). */
export type IssuerStore = SigningKeyStore & ClientStore & ProjectStore & RevocationStore & UsedJtiStore & ChangeFeed;

export interface IssuerDeps {
  store: IssuerStore;
  config: IssuerConfig;
  log: Logger;
  clock?: Clock;
}
