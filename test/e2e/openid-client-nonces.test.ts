import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { clientKey, keySet } from '#test/client-keys.ts';
import { freePort } from '#test/stack.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

const PHONE = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';

/** The upstream (issuer) and a gateway in front of it, each requiring nonces signed with its secret. */
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
  config[oidc.customFetch] = async (url, options) => {
    const res = await fetch(url, options as RequestInit);
    statuses[new URL(url).pathname === '/oauth/token' ? 'token' : 'api']?.push(res.status);
    return res;
  };
  const handle = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
  const token = (await oidc.clientCredentialsGrant(config, { scope: 'phone' }, { DPoP: handle })).access_token;
  const call = () =>
    oidc.fetchProtectedResource(config, token, new URL(`${rig.gatewayUrl}${PHONE}`), 'GET', undefined, undefined, {
      DPoP: handle,
    });
  return { statuses, call };
}

describe('openid-client against a gateway and an issuer that both require DPoP nonces', () => {
  const rigs: Rig[] = [];
  afterAll(async () => {
    for (const rig of rigs) {
      await rig.gateway.close();
      await rig.up.destroy();
    }
  });

  describe('sharing one DPOP_NONCE_SECRET', () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig('one-nonce-secret-for-both', 'one-nonce-secret-for-both');
      rigs.push(rig);
    }, 120_000);

    it("calls the API at once with the nonce the token endpoint gave, the origin's one nonce", async () => {
      const { statuses, call } = await client(rig);
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      expect(statuses).toEqual({ token: [400, 200], api: [200, 200] });
    });
  });

  describe('with different secrets', () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig('the-issuers-nonce-secret', 'the-gateways-nonce-secret');
      rigs.push(rig);
    }, 120_000);

    it("reads the gateway's 401 use_dpop_nonce challenge and retries with its DPoP-Nonce", async () => {
      const { statuses, call } = await client(rig);
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      expect(statuses).toEqual({ token: [400, 200], api: [401, 200, 200] });
    });
  });
});
