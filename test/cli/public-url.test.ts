import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as oauth from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliInProcess, startCliInProcess } from '#test/cli-in-process.ts';
import { migratedDataDir } from '#test/store-template.ts';
import { runCli, stackEnv } from './cli-runner.ts';

type Json = Record<string, unknown>;

const running: CliInProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const stack of running.splice(0)) expect((await stack.stop()).code).toBe(0);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/**
 * `tokengate start` with PUBLIC_URL set from its gateway URL, until it has printed its URLs: in
 * this process, as these tests are about the configuration both halves read.
 */
async function startStack(publicUrlOf: (gatewayUrl: string) => string, extraEnv: Record<string, string> = {}) {
  const dataDir = await migratedDataDir('tokengate-public-url-');
  dirs.push(dataDir);
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', ...(await stackEnv(dataDir)), ...extraEnv };
  const gatewayUrl = `http://127.0.0.1:${env['GATEWAY_PORT']}`;
  const stack = startCliInProcess(['start'], { ...env, PUBLIC_URL: publicUrlOf(gatewayUrl) });
  running.push(stack);
  await stack.waitFor(/admin token:/);
  return { env, gatewayUrl };
}

async function phoneClient(env: Record<string, string>) {
  const project = JSON.parse(
    (await runCli(['admin', 'project', 'create', '--name', 'p', '--plan', 'business', '--json'], env)).stdout,
  ) as Json;
  const created = await runCli(
    ['admin', 'client', 'create', '--project', String(project['id']), '--name', 'c', '--scopes', 'phone', '--json'],
    env,
  );
  return JSON.parse(created.stdout) as { client_id: string; client_secret: string };
}

describe('PUBLIC_URL as the gateway and the upstream read it', () => {
  it.each([
    ['with a trailing slash', (gatewayUrl: string) => `${gatewayUrl}/`],
    ['set but empty (the default applies)', () => ''],
  ])(
    'a PUBLIC_URL %s: discovery through the gateway, a token, and a call the gateway accepts',
    { timeout: 180_000 },
    async (_label, publicUrl) => {
      const { env, gatewayUrl } = await startStack(publicUrl);
      const client = await phoneClient(env);

      const config = await oauth.discovery(
        new URL(gatewayUrl),
        client.client_id,
        undefined,
        oauth.ClientSecretBasic(client.client_secret),
        {
          algorithm: 'oauth2',
          execute: [oauth.allowInsecureRequests],
        },
      );
      expect(config.serverMetadata().issuer).toBe(gatewayUrl);
      const token = await oauth.clientCredentialsGrant(config, { scope: 'phone' });
      const res = await fetch(
        `${gatewayUrl}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`,
        {
          headers: { authorization: `Bearer ${token.access_token}` },
        },
      );
      // Before: 401 1024 (trailing slash: the gateway expected another iss) or no gateway at all (empty).
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, is_verified: true });
    },
  );
});

describe('TOKEN_AUDIENCE as the gateway and the upstream read it', () => {
  it('a token whose aud is TOKEN_AUDIENCE is accepted at the gateway of the same stack', {
    timeout: 180_000,
  }, async () => {
    const { env, gatewayUrl } = await startStack((url) => url, { TOKEN_AUDIENCE: 'https://validation.example/api' });
    const client = await phoneClient(env);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const token = (
      (await (await fetch(`${gatewayUrl}/oauth/token`, { method: 'POST', body: form })).json()) as {
        access_token: string;
      }
    ).access_token;
    expect(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({
      aud: 'https://validation.example/api',
    });
    const res = await fetch(`${gatewayUrl}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // Before: 401 1024, the gateway expected aud = PUBLIC_URL.
    expect(res.status).toBe(200);
  });
});

describe('a PUBLIC_URL the gateway cannot use', () => {
  it('is refused by check-config, naming the variable, as the upstream refuses it', async () => {
    const shipped = join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml');
    const result = await runCli(['check-config', shipped], {
      GATEWAY_PORT: '0',
      METRICS_PORT: '0',
      REVOCATION_FEED_TOKEN: 't',
      PUBLIC_URL: 'not-a-url',
    });
    // Before: "OK", and a gateway that expected iss "not-a-url" refused every token.
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('PUBLIC_URL must be an http(s) URL, not "not-a-url"'),
    });
  });
});
