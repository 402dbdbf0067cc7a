import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutation, presentation, randomAuthorization } from '#test/hostile-tokens.ts';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { exchange, type ReadResponse, rawConnection, readResponses } from './raw-http.ts';
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from './recording-upstream.ts';

/**
 * Random raw requests through a running gateway (issue 17): whatever bytes arrive on a
 * connection, the gateway answers with well-formed HTTP responses or closes the connection,
 * nothing escapes as an uncaught error, and every request the upstream receives is well-formed
 * (its strict parser accepted it) and was authorised. Fixed budget; fast-check prints the seed
 * and the shrunk bytes of a failure.
 */

/** This folder's gateway.yaml: path → the methods it forwards, and the scope a bearer route needs. */
const ROUTES: Record<string, { readonly methods: readonly string[]; readonly scope?: string }> = {
  '/api/phone/v1/verification': { methods: ['GET'], scope: 'phone' },
  '/api/au/address/autocomplete': { methods: ['GET', 'POST'], scope: 'address' },
  '/public/echo': { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
};

/** What the upstream's parser reports when a request it was reading is cut off. */
const ABANDONED = new Set(['HPE_INVALID_EOF_STATE', 'ECONNRESET']);

let recorder: RecordingUpstream;
let h: Harness;
let port: number;
/** Genuine tokens and the scopes each was granted. */
const genuine = new Map<string, readonly string[]>();
const escaped: unknown[] = [];
const onEscape = (error: unknown) => void escaped.push(error);

beforeAll(async () => {
  recorder = await startRecordingUpstream();
  h = await startHarness(import.meta.dirname, { env: { UPSTREAM_URL: recorder.url } });
  port = Number(new URL(h.gateway.url).port);
  for (const scopes of [['address', 'phone', 'email'], ['phone'], ['address']] as const)
    genuine.set(await h.kit.tokenWithScopes(scopes), scopes);
  // An error that escaped a request (in this process the gateway's own handler is not installed).
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterAll(async () => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
  await h?.close();
  await recorder?.close();
});

/** Authorization values: genuine tokens, mutated ones in every presentation, and junk. */
function authorizationValues(): fc.Arbitrary<string> {
  const tokens = fc.constantFrom(...genuine.keys());
  return fc.oneof(
    { arbitrary: tokens.map(bearer), weight: 3 },
    {
      arbitrary: fc
        .tuple(tokens, fc.array(mutation, { minLength: 1, maxLength: 2 }), presentation)
        .map(([token, mutations, present]) => present(mutations.reduce((t, m) => m(t), token))),
      weight: 2,
    },
    randomAuthorization.filter((value) => value.length < 3000),
  );
}

function header(response: ReadResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n === name)?.[1];
}

/** A gateway reply in the documented error shape when it says it is JSON and an error. */
function expectWellFormed(response: ReadResponse): void {
  if (response.status < 400 || !header(response, 'content-type')?.startsWith('application/json')) return;
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toMatchObject({ success: false, error_code: expect.stringMatching(/^1\d{3}$/) });
  expect(typeof body['message']).toBe('string');
}

function decodePayload(token: string): unknown {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
}

function rawHeaderLines(r: RecordedRequest, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2)
    if ((r.rawHeaders[i] as string).toLowerCase().startsWith(name)) out.push(r.rawHeaders[i + 1] as string);
  return out;
}

/** Every request the upstream got is one of the configured routes, and a bearer route's was authorised. */
function expectAuthorised(r: RecordedRequest): void {
  const path = r.url.split('?', 1)[0] as string;
  // The gateway's routes match with and without one trailing slash (routing/router.ts).
  const route = ROUTES[path] ?? ROUTES[path.replace(/(.)\/$/, '$1')];
  expect(route, `upstream got ${r.method} ${r.url}`).toBeDefined();
  expect(route?.methods).toContain(r.method);
  expect(rawHeaderLines(r, 'host')).toHaveLength(1);
  const identity = rawHeaderLines(r, 'x-tokengate-');
  if (route?.scope === undefined) {
    expect(identity, 'no identity header reaches a public route').toEqual([]);
    return;
  }
  expect(identity, 'the identity of a verified token').toHaveLength(1);
  expect(identity[0]).toContain('client_id="client-1"');
  const jti = /jti="([^"]+)"/.exec(identity[0] as string)?.[1];
  const token = [...genuine.keys()].find((t) => JSON.stringify(decodePayload(t)).includes(`"${jti}"`));
  expect(token, 'a bearer route forwards only a genuine token').toBeDefined();
  expect(genuine.get(token as string)).toContain(route.scope);
  // Authorization goes on for the upstream's own check (unless the client listed it in Connection).
  const authorization = r.headers.authorization;
  if (authorization !== undefined) expect(authorization).toMatch(new RegExp(`^bearer ${token}$`, 'i'));
}

async function settled(): Promise<void> {
  for (let i = 0; i < 100 && recorder.inProgress() > 0; i++) await new Promise((r) => setTimeout(r, 10));
}

/**
 * Found by this property (fixed in framing.ts): an upgrade request whose Transfer-Encoding
 * Node's parser left unchecked reached the upstream as sent. Always tried first.
 */
function knownCases(): Buffer[][] {
  const [token] = genuine.keys();
  const head = `GET /api/phone/v1/verification HTTP/1.1\r\nHost: gw.test\r\nAuthorization: ${bearer(token as string)}`;
  return [[Buffer.from(`${head}\r\nTransfer-Encoding: identity\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n`)]];
}

describe('the gateway under random raw requests', () => {
  it('answers every connection with well-formed responses or a clean close, forwards only well-formed authorised requests, and keeps serving', {
    timeout: 60_000,
  }, async () => {
    let checked = 0;
    let refusedBefore = 0;
    await fc.assert(
      fc.asyncProperty(rawConnection(authorizationValues()), async (pieces) => {
        const { received, ending } = await exchange(port, pieces);
        expect(ending, 'the connection was neither answered nor closed').not.toBe('timeout');
        const { responses, problem } = readResponses(received);
        expect(problem, `reply ${JSON.stringify(received.slice(0, 400))}`).toBeUndefined();
        for (const response of responses) expectWellFormed(response);
        await settled();
        const forwarded = recorder.requests.slice(checked);
        checked = recorder.requests.length;
        for (const r of forwarded) expectAuthorised(r);
        // A request the gateway abandons mid-body (413) ends its upstream connection there: the
        // upstream's parser reports the early end. Anything else it refuses was malformed.
        const refused = recorder.parseErrors.slice(refusedBefore);
        refusedBefore = recorder.parseErrors.length;
        expect(refused.filter((code) => !ABANDONED.has(code))).toEqual([]);
        expect(escaped).toEqual([]);
      }),
      // 3 to 8 s here, as the machine is loaded; 3,000 runs, three times over, found nothing more.
      { numRuns: 600, examples: knownCases().map((pieces) => [pieces]) },
    );
    expect(h.logs.text()).not.toContain('request failed; answered 500');
    // The same gateway still verifies and forwards a normal request.
    const [token] = genuine.keys();
    const res = await h.fetch('/api/phone/v1/verification?phone_number=1', {
      headers: { authorization: bearer(token as string) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-upstream')).toBe('recorder');
  });
});
