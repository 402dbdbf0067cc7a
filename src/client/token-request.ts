import type { Clock } from '#common';
import { type ClientSigningKey, clientAssertion } from './client-assertion.ts';
import type { Dpop } from './dpop.ts';
import { TokenRequestError } from './errors.ts';
import { readLimited } from './read-limited.ts';
import { retryAfterMs } from './retry-after.ts';
import { asksForDpopNonce, type IssuedToken, parseTokenResponse } from './token-response.ts';

/** One client-credentials token request (spec: Token endpoint). No caching here. */
export interface TokenRequestOptions {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** private_key_jwt: signs a fresh assertion for every request (each is accepted once). */
  readonly privateKey?: ClientSigningKey | undefined;
  /** Sent space-separated only when given: the server's default is every permitted scope. */
  readonly scopes?: readonly string[] | undefined;
  readonly expiresIn?: number | undefined;
  /** Credentials as form fields (spec default) or HTTP Basic (RFC 6749 section 2.3.1). */
  readonly authMethod: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt';
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  /** For a `Retry-After` given as an HTTP-date. */
  readonly clock: Clock;
  /** DPoP: every request carries a fresh proof for POST at `tokenUrl` and asks for a bound token. */
  readonly dpop?: Dpop | undefined;
}

/** The answers whose `Retry-After` says when to ask again (RFC 6585 section 4, RFC 9110 section 15.6.4). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** Token responses are a few kilobytes; anything larger is not a token response. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export async function requestToken(options: TokenRequestOptions): Promise<IssuedToken> {
  const url = new URL(options.tokenUrl);
  // One deadline for the request, its nonce retry included.
  const signal = AbortSignal.timeout(options.timeoutMs);
  let answer = await send(options, url, signal);
  // RFC 9449 §8: the issuer wants its nonce in the proof; once more with the nonce it just gave.
  if (answer.nonce !== undefined && asksForDpopNonce(answer.status, answer.text))
    answer = await send(options, url, signal);
  const retryAfter = RETRY_AFTER_STATUSES.has(answer.status)
    ? retryAfterMs(answer.retryAfter, options.clock.now())
    : undefined;
  return parseTokenResponse(answer.status, answer.text, { retryAfterMs: retryAfter, dpop: options.dpop !== undefined });
}

interface Answer {
  readonly status: number;
  readonly text: string | undefined;
  readonly retryAfter: string | null;
  /** The valid `DPoP-Nonce` the answer carried, when the client uses DPoP. */
  readonly nonce: string | undefined;
}

/** One POST to the token endpoint, with a fresh assertion and proof (each is accepted once). */
async function send(options: TokenRequestOptions, url: URL, signal: AbortSignal): Promise<Answer> {
  let response: Response;
  let text: string | undefined;
  const assertion = options.privateKey
    ? await clientAssertion(options.privateKey, options.clientId, options.tokenUrl, options.clock.now())
    : undefined;
  const proof = options.dpop ? await options.dpop.proof('POST', url) : undefined;
  try {
    response = await options.fetch(options.tokenUrl, {
      method: 'POST',
      headers: requestHeaders(options, proof),
      body: requestBody(options, assertion),
      // A token endpoint never redirects. Following one would send the form, client secret
      // included, wherever the Location says (another host, or plain http); a 3xx is
      // answered as invalid_response instead.
      redirect: 'manual',
      signal,
    });
    text = await readLimited(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    throw transportError(error, options.timeoutMs);
  }
  const nonce = options.dpop?.learn(url, response.headers);
  return { status: response.status, text, retryAfter: response.headers.get('retry-after'), nonce };
}

function requestHeaders(options: TokenRequestOptions, proof: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (proof !== undefined) headers.dpop = proof;
  if (options.authMethod === 'client_secret_basic') {
    // RFC 6749 2.3.1: form-encode id and secret before base64.
    const pair = `${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return headers;
}

function requestBody(options: TokenRequestOptions, assertion: string | undefined): string {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (assertion !== undefined) {
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    form.set('client_assertion', assertion);
  }
  if (options.authMethod === 'client_secret_post') {
    form.set('client_id', options.clientId);
    form.set('client_secret', options.clientSecret);
  }
  if (options.scopes && options.scopes.length > 0) form.set('scope', options.scopes.join(' '));
  if (options.expiresIn !== undefined) form.set('expires_in', String(options.expiresIn));
  return form.toString();
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function transportError(error: unknown, timeoutMs: number): TokenRequestError {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new TokenRequestError('timeout', `token request timed out after ${timeoutMs} ms`, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new TokenRequestError('network', `token request failed: ${reason}`, { cause: error });
}
