import type { Clock, Scope } from '#common';
import type { ClientSigningKey } from './client-assertion.ts';
import { createDpop, type Dpop } from './dpop.ts';
import { checkDpopOption, type DpopKeyPair } from './dpop-key.ts';
import { requireSecureUrl } from './transport-security.ts';

export interface TokenClientOptions {
  /** The token endpoint, e.g. `http://127.0.0.1:8080/oauth/token` (use HTTPS off loopback). */
  readonly tokenUrl: string;
  readonly clientId: string;
  /** Keep it in a secrets store; the library never logs it or puts it in an error. Or `privateKey`. */
  readonly clientSecret?: string;
  /** private_key_jwt (RFC 7523): sign a fresh assertion per token request instead of sending a secret. */
  readonly privateKey?: ClientSigningKey;
  /** Request only the scopes you need; omitted = every scope the client is permitted. */
  readonly scopes?: readonly Scope[];
  /** Requested lifetime in seconds (1..3600); omitted = the server's default (900). */
  readonly expiresIn?: number;
  readonly clock?: Clock;
  /** The fetch used for token and API calls; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * Start refreshing in the background this many seconds before expiry, while calls go on with
   * the current token (default 60, capped at half the lifetime).
   */
  readonly refreshMarginSec?: number;
  /** Timeout of one token request in milliseconds (default 10,000). */
  readonly timeoutMs?: number;
  /** Credentials as form fields (default, as the spec shows) or HTTP Basic. */
  readonly authMethod?: 'client_secret_post' | 'client_secret_basic';
  /** Allow plain http to non-loopback hosts (default false: https, or http to loopback only). */
  readonly allowInsecureHttp?: boolean;
  /**
   * DPoP (RFC 9449): ask for tokens bound to this key pair (`true`: an ES256 pair generated in
   * this process) and prove possession of it on every token request and API call.
   */
  readonly dpop?: true | DpopKeyPair;
}

export interface ResolvedOptions {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly privateKey: ClientSigningKey | undefined;
  readonly scopes: readonly Scope[] | undefined;
  readonly expiresIn: number | undefined;
  readonly clock: Clock;
  readonly fetch: typeof fetch;
  readonly refreshMarginSec: number;
  readonly timeoutMs: number;
  readonly authMethod: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt';
  readonly allowInsecureHttp: boolean;
  readonly dpop: Dpop | undefined;
}

const systemClock: Clock = { now: () => Date.now() };

/** Misuse is a programming error: it throws a TypeError at construction, not at the first call. */
export function resolveOptions(options: TokenClientOptions): ResolvedOptions {
  const allowInsecureHttp = options.allowInsecureHttp ?? false;
  const url = parseUrl(options.tokenUrl);
  requireSecureUrl(url, 'tokenUrl', allowInsecureHttp);
  requireText('clientId', options.clientId);
  if ((options.clientSecret === undefined) === (options.privateKey === undefined))
    throw new TypeError('give exactly one of clientSecret and privateKey');
  if (options.privateKey === undefined) requireText('clientSecret', options.clientSecret);
  else requireText('privateKey.kid', options.privateKey.kid);
  const expiresIn = options.expiresIn;
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn >= 1 && expiresIn <= 3600)) {
    throw new TypeError('expiresIn must be an integer number of seconds from 1 to 3600');
  }
  const refreshMarginSec = options.refreshMarginSec ?? 60;
  if (!(Number.isFinite(refreshMarginSec) && refreshMarginSec >= 0)) {
    throw new TypeError('refreshMarginSec must be a number of seconds >= 0');
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive integer');
  if (options.dpop !== undefined) checkDpopOption(options.dpop);
  const clock = options.clock ?? systemClock;
  return {
    tokenUrl: url.href,
    clientId: options.clientId,
    clientSecret: options.clientSecret ?? '',
    privateKey: options.privateKey,
    scopes: options.scopes && options.scopes.length > 0 ? [...options.scopes] : undefined,
    expiresIn,
    clock,
    fetch: options.fetch ?? globalThis.fetch,
    refreshMarginSec,
    timeoutMs,
    authMethod: options.privateKey ? 'private_key_jwt' : (options.authMethod ?? 'client_secret_post'),
    allowInsecureHttp,
    dpop: options.dpop === undefined ? undefined : createDpop(options.dpop, clock),
  };
}

function parseUrl(value: string): URL {
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new TypeError('tokenUrl must be an absolute http(s) URL');
  return new URL(value);
}

function requireText(name: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
}
