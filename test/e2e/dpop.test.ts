import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { type Stack, startStack } from '#test/stack.ts';

type Json = Record<string, unknown>;
const PATH = '/api/phone/v1/verification';
const QUERY = '?phone_number=0412345678&default_country_code=AU';

/** DPoP end to end through real processes: token endpoint, gateway and the upstream's own check. */
describe('a DPoP-bound token through the gateway', () => {
  let stack: Stack;
  let key: DpopKey;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    key = await dpopKey('ES256');
    const project = await stack.adminJson<Json>(['project', 'create', '--name', 'dpop', '--plan', 'business']);
    const args = ['client', 'create', '--project', String(project['id']), '--name', 'd', '--scopes', 'phone'];
    const client = await stack.adminJson<Json>([...args, '--require-dpop']);
    const tokenUrl = `${stack.gatewayUrl}/oauth/token`;
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { dpop: await dpopProof(key, 'POST', tokenUrl) },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: String(client['client_id']),
        client_secret: String(client['client_secret']),
      }),
    });
    const body = (await res.json()) as Json;
    expect(body['token_type']).toBe('DPoP');
    token = String(body['access_token']);
  }, 120_000);
  afterAll(async () => {
    await stack?.destroy();
  });

  const call = async (headers: Record<string, string>, path = PATH) => {
    const res = await fetch(`${stack.gatewayUrl}${path}${QUERY}`, { headers });
    return { status: res.status, challenge: res.headers.get('www-authenticate'), body: (await res.json()) as Json };
  };
  const proof = (options: Parameters<typeof dpopProof>[3] = {}, htm = 'GET', path = PATH, k = key) =>
    dpopProof(k, htm, `${stack.gatewayUrl}${path}`, { token, ...options });

  it('answers a call with the token and a fresh proof of its key', async () => {
    expect((await call({ authorization: `DPoP ${token}`, dpop: await proof() })).status).toBe(200);
  });

  it('refuses a replayed proof, a proof for another URL or method, by another key, and none', async () => {
    const used = await proof();
    expect((await call({ authorization: `DPoP ${token}`, dpop: used })).status).toBe(200);
    const cases: Array<[string, Record<string, string>]> = [
      ['replayed', { authorization: `DPoP ${token}`, dpop: used }],
      ['another URL', { authorization: `DPoP ${token}`, dpop: await proof({}, 'GET', '/api/email/v1/verification') }],
      ['another method', { authorization: `DPoP ${token}`, dpop: await proof({}, 'POST') }],
      ['another key', { authorization: `DPoP ${token}`, dpop: await proof({}, 'GET', PATH, await dpopKey()) }],
      ['no proof', { authorization: `DPoP ${token}` }],
    ];
    for (const [what, headers] of cases) {
      const res = await call(headers);
      expect({ what, status: res.status, code: res.body['error_code'] }).toEqual({ what, status: 401, code: '1027' });
      expect(res.challenge).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
    }
  });

  it('refuses the token presented as Bearer (a thief without the key)', async () => {
    const res = await call({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.body['error_code']).toBe('1024');
    // The DPoP challenge tells the caller the only scheme this token works with.
    expect(res.challenge).toMatch(/^DPoP realm="tokengate", algs="[^"]+", error="invalid_token"/);
  });
});
