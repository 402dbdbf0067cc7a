import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDpopNonces } from '#auth';
import { dpopKey, dpopProof } from '#test/dpop.ts';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

const SECRET = 'upstream-nonce-secret-for-tests';
let t: TestUpstream;
let credentials: { client_id: string; client_secret: string };

beforeAll(async () => {
  t = await startTestUpstream({ env: { DPOP_NONCE: 'required', DPOP_NONCE_SECRET: SECRET }, routes: [] });
  const project = (await t.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as { id: string };
  const client = await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] });
  credentials = client.body as typeof credentials;
});
afterAll(async () => {
  await t?.destroy();
});

describe('DPOP_NONCE and DPOP_NONCE_SECRET in the upstream', () => {
  it('make its token endpoint require nonces signed with that secret, as a gateway sharing it does', async () => {
    const key = await dpopKey();
    // PUBLIC_URL defaults to the gateway's URL: the proof names the token endpoint there.
    const tokenUrl = 'http://127.0.0.1:8080/oauth/token';
    const post = async (nonce: string | undefined) =>
      fetch(`${t.upstream.url}/oauth/token`, {
        method: 'POST',
        headers: { dpop: await dpopProof(key, 'POST', tokenUrl, { claims: { nonce } }) },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...credentials }),
      });
    const refused = await post(undefined);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('use_dpop_nonce');
    const nonce = refused.headers.get('dpop-nonce') ?? undefined;
    const gateway = createDpopNonces({ mode: 'required', secret: SECRET, now: Date.now });
    expect(gateway?.accepts(nonce)).toBe(true);
    const granted = await post(gateway?.current());
    expect(granted.status).toBe(200);
    expect(((await granted.json()) as { token_type: string }).token_type).toBe('DPoP');
  });
});
