import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real loopback token endpoint and API for the client tests: it counts token requests,
 * records what each asked for, and answers 1030 for tokens the test marks as expired (1024 for revoked ones).
 */
export interface TokenRequestRecord {
  readonly form: URLSearchParams;
  readonly authorization: string | undefined;
}

export interface TokenServer {
  readonly tokenUrl: string;
  readonly apiUrl: string;
  readonly tokenRequests: TokenRequestRecord[];
  readonly apiCalls: Array<string | undefined>;
  /** The body of each API call, as text. */
  readonly apiBodies: string[];
  /** Lifetime the next tokens are issued with. */
  expiresIn: number;
  /** When set, the token endpoint answers this instead of a token. */
  failWith: { status: number; body: string; contentType?: string; headers?: Record<string, string> } | undefined;
  /** When true, token requests are accepted but never answered. */
  hang: boolean;
  /** Milliseconds the token endpoint waits before it answers (a slow issuer). */
  delayMs: number;
  /** Tokens the API answers with 1030. `'all'` expires every token. */
  expired: Set<string> | 'all';
  /** Tokens the API answers with 1024 "OAuth key has been revoked". `'all'` revokes every token. */
  revoked: Set<string> | 'all';
  /** Bearer tokens the API refuses with this other 401 code (e.g. 1026). */
  otherFailure: string | undefined;
  close(): Promise<void>;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(req));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startTokenServer(): Promise<TokenServer> {
  let issued = 0;
  const state: Omit<TokenServer, 'tokenUrl' | 'apiUrl' | 'close'> = {
    tokenRequests: [],
    apiCalls: [],
    apiBodies: [],
    expiresIn: 900,
    failWith: undefined,
    hang: false,
    delayMs: 0,
    expired: new Set(),
    revoked: new Set(),
    otherFailure: undefined,
  };

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    state.tokenRequests.push({ form: await readForm(req), authorization: req.headers.authorization });
    if (state.hang) return;
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.failWith) {
      res.writeHead(state.failWith.status, {
        ...state.failWith.headers,
        'content-type': state.failWith.contentType ?? 'application/json',
      });
      res.end(state.failWith.body);
      return;
    }
    issued += 1;
    json(res, 200, {
      access_token: `tok-${issued}`,
      token_type: 'Bearer',
      expires_in: state.expiresIn,
      scope: 'address',
    });
  }

  async function api(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    state.apiCalls.push(bearer);
    state.apiBodies.push(await readText(req));
    const expired = state.expired === 'all' || (bearer !== undefined && state.expired.has(bearer));
    const revoked = state.revoked === 'all' || (bearer !== undefined && state.revoked.has(bearer));
    if (expired)
      json(res, 401, { message: 'Token expired at 2026-01-01T00:00:00Z', error_code: '1030', success: false });
    else if (revoked) json(res, 401, { message: 'OAuth key has been revoked', error_code: '1024', success: false });
    else if (state.otherFailure) json(res, 401, { message: 'refused', error_code: state.otherFailure, success: false });
    else json(res, 200, { success: true, token: bearer });
  }

  const server: Server = createServer((req, res) => {
    if (req.url === '/oauth/token' && req.method === 'POST') void token(req, res);
    else void api(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
    apiUrl: `http://127.0.0.1:${port}/api/echo`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
