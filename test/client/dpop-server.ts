import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { type DpopNonces, verifyDpopProof } from '#auth';

/**
 * A real loopback token endpoint and API that speak DPoP (RFC 9449) for the client tests. Every
 * proof is checked with tokengate's own verifier (signature, htm, htu, iat, ath, nonce); the
 * nonces each side requires are set by the test, and each answer can hand out a new one.
 */
export interface DecodedProof {
  readonly header: ProtectedHeaderParameters;
  readonly payload: JWTPayload;
}

export interface TokenCall {
  readonly form: URLSearchParams;
  readonly proof: DecodedProof | undefined;
}

export interface ApiCall {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly proof: DecodedProof | undefined;
}

export interface ForcedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface DpopServer {
  readonly origin: string;
  readonly tokenUrl: string;
  readonly apiUrl: string;
  readonly tokenCalls: TokenCall[];
  readonly apiCalls: ApiCall[];
  /** Issued tokens and the thumbprint each is bound to ('' for a Bearer token); may be shared by two servers. */
  readonly tokens: Map<string, string>;
  /** The nonce the token endpoint requires; undefined: none. */
  tokenNonce: string | undefined;
  /** The nonce the API requires; undefined: none. */
  apiNonce: string | undefined;
  /** When true, each use_dpop_nonce answer of the API gives a nonce that is already stale. */
  rotateApiNonce: boolean;
  /** Sent as `DPoP-Nonce` with every answer that does not already carry the required one. */
  announceNonce: string | undefined;
  /** What the token endpoint answers to a request with a proof. */
  tokenType: 'DPoP' | 'Bearer';
  /** When set, the token endpoint answers this instead. */
  tokenAnswer: ForcedAnswer | undefined;
  /** Tokens the API answers with 1030, as the gateway does for an expired token. */
  expired: Set<string>;
  close(): Promise<void>;
}

interface ServerOptions {
  readonly tokens?: Map<string, string>;
}

export async function startDpopServer(options: ServerOptions = {}): Promise<DpopServer> {
  const server: Server = createServer((req, res) => {
    const served = req.url === '/oauth/token' && req.method === 'POST' ? token(req, res) : api(req, res);
    served.catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let issued = 0;
  const seenJtis = new Set<string>();
  const state: DpopServer = {
    origin,
    tokenUrl: `${origin}/oauth/token`,
    apiUrl: `${origin}/api/echo`,
    tokenCalls: [],
    apiCalls: [],
    tokens: options.tokens ?? new Map(),
    tokenNonce: undefined,
    apiNonce: undefined,
    rotateApiNonce: false,
    announceNonce: undefined,
    tokenType: 'DPoP',
    tokenAnswer: undefined,
    expired: new Set(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const now = () => Date.now();
  const nonceHeader = (): Record<string, string> =>
    state.announceNonce === undefined ? {} : { 'dpop-nonce': state.announceNonce };

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readText(req));
    const proof = proofHeader(req);
    state.tokenCalls.push({ form, proof: decode(proof) });
    if (state.tokenAnswer)
      return json(res, state.tokenAnswer.status, state.tokenAnswer.body, state.tokenAnswer.headers);
    let jkt = '';
    if (proof !== undefined) {
      const nonces = requiredNonce(state.tokenNonce);
      const result = await verifyDpopProof(
        { proof, method: 'POST', url: state.tokenUrl, nonces },
        { now, iatWindowSec: 60 },
      );
      if (!result.ok && result.error === 'use_dpop_nonce')
        return json(res, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': state.tokenNonce ?? '' });
      if (!result.ok) return json(res, 400, { error: 'invalid_dpop_proof', error_description: result.detail });
      if (state.tokenType === 'DPoP') jkt = result.jkt;
    }
    issued += 1;
    const value = `${jkt === '' ? 'bearer' : 'dpop'}-${issued}-${origin.slice(-5)}`;
    state.tokens.set(value, jkt);
    json(res, 200, { access_token: value, token_type: jkt === '' ? 'Bearer' : 'DPoP', expires_in: 900 }, nonceHeader());
  }

  async function api(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await readText(req);
    const proof = proofHeader(req);
    const authorization = req.headers.authorization;
    state.apiCalls.push({ method: req.method ?? '', url: req.url ?? '', authorization, proof: decode(proof) });
    const [scheme = '', value = ''] = (authorization ?? '').split(' ');
    const jkt = state.tokens.get(value);
    if (jkt === undefined) return json(res, 401, { error_code: '1024', message: 'Invalid bearer token' });
    if (state.expired.has(value)) return json(res, 401, { error_code: '1030', message: 'Token expired at 2026-01-01' });
    if (jkt === '' && scheme === 'Bearer') return json(res, 200, { success: true, scheme }, nonceHeader());
    if (scheme !== 'DPoP') return json(res, 401, { error_code: '1024', message: 'Invalid bearer token' });
    const nonces = requiredNonce(state.apiNonce);
    const url = `${origin}${req.url ?? ''}`;
    const method = req.method ?? '';
    const result = await verifyDpopProof({ proof, method, url, accessToken: value, nonces }, { now, iatWindowSec: 60 });
    if (!result.ok && result.error === 'use_dpop_nonce') {
      const given = state.apiNonce ?? '';
      // A server whose nonces go stale at once: the one given here is refused on the retry.
      if (state.rotateApiNonce) state.apiNonce = `n-rotated-${state.apiCalls.length}`;
      const challenge =
        'DPoP algs="ES256 EdDSA", error="use_dpop_nonce", error_description="Resource server requires nonce"';
      const headers = { 'www-authenticate': challenge, 'dpop-nonce': given };
      return json(
        res,
        401,
        { error_code: '1028', message: 'DPoP nonce required: sign a new proof with the DPoP-Nonce value' },
        headers,
      );
    }
    if (!result.ok || result.jkt !== jkt || seenJtis.has(result.jti))
      return json(
        res,
        401,
        { error_code: '1027', message: 'Invalid DPoP proof' },
        { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' },
      );
    seenJtis.add(result.jti);
    json(res, 200, { success: true, scheme }, nonceHeader());
  }

  return state;
}

/** The one nonce the test set, required of every proof; undefined: no nonces. */
function requiredNonce(nonce: string | undefined): DpopNonces | undefined {
  if (nonce === undefined) return undefined;
  return { mode: 'required', current: () => nonce, accepts: (value) => value === nonce };
}

function proofHeader(req: IncomingMessage): string | undefined {
  const value = req.headers.dpop;
  return Array.isArray(value) ? value.join(', ') : value;
}

function decode(proof: string | undefined): DecodedProof | undefined {
  if (proof === undefined) return undefined;
  return { header: decodeProtectedHeader(proof), payload: decodeJwt(proof) };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
