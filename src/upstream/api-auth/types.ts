import type { IncomingMessage } from 'node:http';
import type { Verifier } from '#auth';
import type { ApiErrorBody, Clock, Logger, Scope } from '#common';
import type { ApiKeyStore, ChangeFeed, ProjectStore } from '#store';
import type { ValidationRoute } from '#validation';

/** How a validation request proved who it is. */
export type ApiAuthMethod = 'bearer' | 'key';

export interface ApiAuthAllowed {
  readonly ok: true;
  readonly projectId: string;
  readonly via: ApiAuthMethod;
  /** What the caller may use: the token's scopes, or every scope for key/secret (see key-secret.ts). */
  readonly scopes: readonly Scope[];
  /** The OAuth client, for bearer tokens only (logs, metrics). */
  readonly clientId?: string;
}

/** A complete answer in the route's error body shape; the host writes it as is. */
export interface ApiAuthRefused {
  readonly ok: false;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ApiErrorBody;
}

export type ApiAuthResult = ApiAuthAllowed | ApiAuthRefused;

export interface ApiAuthenticator {
  authenticate(req: IncomingMessage, query: URLSearchParams, route: ValidationRoute): Promise<ApiAuthResult>;
}

export interface ApiAuthOptions {
  /** Built by the host with `createVerifier` over the issuer's local keys and revocations. */
  readonly verifier: Verifier;
  readonly store: ProjectStore & ApiKeyStore & Partial<ChangeFeed>;
  readonly log: Logger;
  readonly clock?: Clock;
  /**
   * How long a project or API-key lookup is reused (default 1000 ms; 0 = ask the store every time).
   * It bounds how long a deleted project's tokens and keys may still pass after the deletion.
   */
  readonly cacheTtlMs?: number;
}
