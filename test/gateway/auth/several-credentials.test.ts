import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { rawRequest } from '../support/raw-request.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
});
afterAll(() => h.close());

const INVALID_REQUEST = { message: 'More than one Authorization header', error_code: '1044', success: false };
const CHALLENGE =
  'Bearer realm="tokengate", error="invalid_request", error_description="More than one Authorization header"';

/** A request with the Authorization lines given, each its own header line (as no fetch() sends them). */
async function withAuthorizations(path: string, values: string[]) {
  const before = h.upstream.seen.length;
  // Node's client sends one line per array element (typed as a string only under the lower-case name).
  const res = await rawRequest(h.gateway.url, path, { headers: { Authorization: values } });
  return { ...res, json: JSON.parse(res.body) as unknown, forwarded: h.upstream.seen.length - before };
}

describe('several Authorization headers (RFC 6750 §3.1 invalid_request)', () => {
  it('refuses two valid bearer tokens with 400 1044 and error="invalid_request" instead of using the first', async () => {
    const phone = bearer(await h.kit.tokenWithScopes(['phone']));
    const other = bearer(await h.kit.tokenWithScopes(['address']));
    const res = await withAuthorizations('/api/phone/v1/verification', [phone, other]);
    expect(res).toMatchObject({ status: 400, json: INVALID_REQUEST, forwarded: 0 });
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers in the route’s body shape (autocomplete adds completions: [])', async () => {
    const token = bearer(await h.kit.tokenWithScopes(['address']));
    const res = await withAuthorizations('/api/au/address/autocomplete?q=x', [token, token]);
    expect(res).toMatchObject({ status: 400, json: { completions: [], ...INVALID_REQUEST }, forwarded: 0 });
  });

  it('refuses them on auth: none and key/secret routes too, where the upstream would see only the first', async () => {
    for (const path of ['/public/x', '/keyed?key=k']) {
      const res = await withAuthorizations(path, ['secret-one', 'Basic dXNlcjpwYXNz']);
      expect(res).toMatchObject({ status: 400, json: INVALID_REQUEST, forwarded: 0 });
    }
  });

  it('still forwards a request with one Authorization header', async () => {
    const res = await withAuthorizations('/api/phone/v1/verification', [
      bearer(await h.kit.tokenWithScopes(['phone'])),
    ]);
    expect(res).toMatchObject({ status: 200, forwarded: 1 });
  });
});
