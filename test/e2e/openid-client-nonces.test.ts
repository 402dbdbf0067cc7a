import { join } from 'node:path';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { clientKey, keySet } from '#test/client-keys.ts';
import { freePort } from '#test/stack.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

const PHONE = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';

/** The upstream (issuer) and a gateway in front of it, each requiring nonces signed with the secret given. */
interface Rig {
  readonly gatewayUrl: string;
  readonly up: TestUpstream;
  readonly gateway: RunningGateway;
}

async function startRig(issuerSecret: string, gatewaySecret: string): Promise<Rig> {
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const up = await startTestUpstream({
    env: { PUBLIC_URL: gatewayUrl, DPOP_NONCE: 'required', DPOP_NONCE_SECRET: issuerSecret },
  });
  const env = {
    GATEWAY_PORT: String(port),
    METRICS_PORT: '0',
    UPSTREAM_URL: up.upstream.url,
    PUBLIC_URL: gatewayUrl,
    REVOCATION_FEED_TOKEN: up.upstream.feedToken.value,
    DPOP_NONCE_SECRET: gatewaySecret,
  };
  // The shipped route map, with nonces required.
  const shipped = loadGatewayConfig(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), env);
  const config = { ...shipped, dpop: { ...shipped.dpop, nonce: 'required' as const } };
  const gateway = await startGateway(config, { log: createLogger({ level: 'silent' }) });
  await gateway.ready();
  return { gatewayUrl, up, gateway };
}

/** openid-client with private_key_jwt and a DPoP handle, counting the statuses it met per path. */
async function client(rig: Rig) {
  const signing = await clientKey('ES256');
  const project = await rig.up.admin('POST', '/projects', { name: 'p', plan: 'business' });
  const created = await rig.up.admin('POST', `/projects/${(project.body as { id: string }).id}/clients`, {
    name: 'c',
    scopes: ['phone'],
    auth: 'private_key_jwt',
    jwks: keySet(signing),
  });
  const config = await oidc.discovery(
    new URL(rig.gatewayUrl),
    (created.body as { client_id: string }).client_id,
    undefined,
    oidc.PrivateKeyJwt({ key: signing.privateKey, kid: signing.kid }),
    { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
  );
  const statuses: Record<string, number[]> = { token: [], api: [] };
  /** Per request: the `nonce` of the proof sent, and the `DPoP-Nonce` answered. */
  const nonces: Array<{ sent: unknown; answered: string | null }> = [];
  config[oidc.customFetch] = async (url, options) => {
    const res = await fetch(url, options as RequestInit);
    statuses[new URL(url).pathname === '/oauth/token' ? 'token' : 'api']?.push(res.status);
    const proof = new Headers(options.headers).get('dpop');
    nonces.push({ sent: proof ? decodeJwt(proof)['nonce'] : undefined, answered: res.headers.get('dpop-nonce') });
    return res;
  };
  const handle = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
  const token = (await oidc.clientCredentialsGrant(config, { scope: 'phone' }, { DPoP: handle })).access_token;
  const call = () =>
    oidc.fetchProtectedResource(config, token, new URL(`${rig.gatewayUrl}${PHONE}`), 'GET', undefined, undefined, {
      DPoP: handle,
    });
  return { statuses, nonces, call };
}

/**
 * The case of different secrets (a 401 use_dpop_nonce at the API, then the retry) is in
 * openid-client-interop.test.ts; this one is the deployment docs/configuration.md recommends.
 */
describe('openid-client against a gateway and an issuer sharing one DPOP_NONCE_SECRET', () => {
  let rig: Rig | undefined;
  beforeAll(async () => {
    rig = await startRig('one-nonce-secret-for-both', 'one-nonce-secret-for-both');
  }, 120_000);
  afterAll(async () => {
    await rig?.gateway.close();
    await rig?.up.destroy();
  });

  it("calls the API at once with the nonce the token endpoint gave, the origin's one nonce", async () => {
    const { statuses, nonces, call } = await client(rig as Rig);
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    expect(statuses).toEqual({ token: [400, 200], api: [200, 200] });
    // The token endpoint's nonce went to the gateway, which took it and answered with its own.
    const [, granted, firstCall, secondCall] = nonces;
    expect(firstCall?.sent).toBe(granted?.answered);
    expect(firstCall?.answered).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secondCall?.sent).toBe(firstCall?.answered);
  });
});
