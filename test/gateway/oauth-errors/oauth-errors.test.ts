import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { frameResponses } from '../support/http-framing.ts';
import { type RawResponse, rawExchange, rawRequest } from '../support/raw-request.ts';

/** RFC 6749 §5.2: what a token endpoint client reads, with §5.1's no-store. */
function expectOAuthError(res: RawResponse, status: number, error: string, description: string): void {
  expect(res.status).toBe(status);
  expect(JSON.parse(res.body)).toEqual({ error, error_description: description });
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['pragma']).toBe('no-cache');
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe("the gateway's own answers on an OAuth route (errorShape: oauth)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname);
  });
  afterAll(() => h.close());

  it('answers a token request body over maxBodyBytes with 413 invalid_request', async () => {
    const body = `grant_type=client_credentials&client_id=c&client_secret=${'s'.repeat(200)}`;
    const res = await rawRequest(h.gateway.url, '/oauth/token', { method: 'POST', headers: FORM, body });
    expectOAuthError(res, 413, 'invalid_request', 'Request too large');
  });

  it('answers a chunked token request body that grows past the limit with 413 invalid_request', async () => {
    const text = await rawExchange(
      h.gateway.url,
      'POST /oauth/token HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `96\r\n${'x'.repeat(150)}\r\n0\r\n\r\n`,
    );
    const [reply] = frameResponses(text);
    expect(reply?.status).toBe(413);
    expect(JSON.parse(reply?.body ?? '')).toEqual({ error: 'invalid_request', error_description: 'Request too large' });
  });

  it('answers a URL over maxUrlLength on the token endpoint with 414 invalid_request', async () => {
    const res = await rawRequest(h.gateway.url, `/oauth/token?${'q'.repeat(300)}`, { method: 'POST' });
    expectOAuthError(res, 414, 'invalid_request', 'Request too large');
  });

  it('answers a method the route does not allow with 405 invalid_request and Allow', async () => {
    const res = await rawRequest(h.gateway.url, '/oauth/revoke', { method: 'GET' });
    expectOAuthError(res, 405, 'invalid_request', 'Method not allowed');
    expect(res.headers['allow']).toBe('POST');
  });

  it('answers two Host headers and two Authorization headers with 400 invalid_request, no Bearer challenge', async () => {
    const text = await rawExchange(
      h.gateway.url,
      'POST /oauth/token HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Length: 0\r\n\r\n',
    );
    expect(frameResponses(text).map((r) => [r.status, JSON.parse(r.body)])).toEqual([
      [400, { error: 'invalid_request', error_description: 'More than one Host header' }],
    ]);
    const res = await rawRequest(h.gateway.url, '/oauth/token', {
      method: 'POST',
      headers: { ...FORM, Authorization: ['Basic YTpi', 'Basic Yzpk'] },
      body: 'grant_type=client_credentials',
    });
    expectOAuthError(res, 400, 'invalid_request', 'More than one Authorization header');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('answers an upstream that does not answer in time with 504 temporarily_unavailable', async () => {
    const res = await rawRequest(h.gateway.url, '/oauth/token?delayMs=2000', {
      method: 'POST',
      headers: FORM,
      body: 'a=b',
    });
    expectOAuthError(res, 504, 'temporarily_unavailable', 'Upstream service timed out');
  });

  it('keeps the documented body on the other routes', async () => {
    const res = await rawRequest(h.gateway.url, '/api/x', { method: 'POST', body: 'x'.repeat(200) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      completions: [],
      message: 'Request too large',
      error_code: '1043',
      success: false,
    });
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('logs the table code of an OAuth-shaped answer for the access log and metrics', async () => {
    await rawRequest(h.gateway.url, '/oauth/revoke', { method: 'GET', headers: { 'x-request-id': 'oauth-405' } });
    const line = h.logs.entries().find((e) => e['reqId'] === 'oauth-405');
    expect(line).toMatchObject({ status: 405, errorCode: '1042' });
  });
});

describe('an OAuth route when the gateway cannot reach the upstream or is stopping', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('answers an unreachable upstream with 502 temporarily_unavailable', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused.
    h = await startHarness(import.meta.dirname, { env: { UPSTREAM_URL: 'http://127.0.0.1:1' } });
    const res = await rawRequest(h.gateway.url, '/oauth/token', { method: 'POST', headers: FORM, body: 'a=b' });
    expectOAuthError(res, 502, 'temporarily_unavailable', 'Upstream service unavailable');
  });

  it('answers a token request still waiting when the drain runs out with 503 temporarily_unavailable', async () => {
    const gateway = await startHarness(import.meta.dirname);
    h = gateway;
    const pending = rawRequest(gateway.gateway.url, '/oauth/token?delayMs=5000', {
      method: 'POST',
      headers: FORM,
      body: 'a=b',
    });
    await expect.poll(() => gateway.upstream.seen.length, { timeout: 5_000 }).toBe(1);
    const closing = gateway.gateway.close();
    const res = await pending;
    await closing;
    expectOAuthError(res, 503, 'temporarily_unavailable', 'Gateway is shutting down');
    expect(res.headers['connection']).toBe('close');
  });
});
