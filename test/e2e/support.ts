import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import pg from 'pg';
import type { Stack } from '#test/stack.ts';

/** Shared steps of the end-to-end walk: what a user does with the CLI, curl and a client. */
export interface CreatedClient {
  client_id: string;
  client_secret: string;
  name: string;
  scopes: string[];
  enabled: boolean;
}

export async function projectWithClient(stack: Stack, scopes: string, plan = 'business') {
  const project = await stack.adminJson<{ id: string; name: string; plan: string }>([
    'project',
    'create',
    '--name',
    `p-${randomUUID().slice(0, 8)}`,
    '--plan',
    plan,
  ]);
  const client = await stack.adminJson<CreatedClient>([
    'client',
    'create',
    '--project',
    project.id,
    '--name',
    'svc',
    '--scopes',
    scopes,
  ]);
  return { project, client };
}

export async function tokenByForm(stack: Stack, client: CreatedClient, extra: Record<string, string> = {}) {
  const res = await fetch(`${stack.gatewayUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...extra,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function accessToken(
  stack: Stack,
  client: CreatedClient,
  extra: Record<string, string> = {},
): Promise<string> {
  const { status, body } = await tokenByForm(stack, client, extra);
  if (status !== 200) throw new Error(`token request failed: ${status} ${JSON.stringify(body)}`);
  return body.access_token as string;
}

export async function call(stack: Stack, pathAndQuery: string, token?: string) {
  const res = await fetch(
    `${stack.gatewayUrl}${pathAndQuery}`,
    token ? { headers: { authorization: `Bearer ${token}` } } : {},
  );
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`non-JSON answer ${res.status} for ${pathAndQuery}: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body, headers: res.headers };
}

/** A token with our claims and a published kid, signed by a key that is not the issuer's. */
export async function forgedToken(stack: Stack, genuine: string): Promise<string> {
  const [headerPart, payloadPart] = genuine.split('.');
  const header = JSON.parse(Buffer.from(headerPart!, 'base64url').toString()) as { kid: string };
  const payload = JSON.parse(Buffer.from(payloadPart!, 'base64url').toString()) as Record<string, unknown>;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  void stack;
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: header.kid }).sign(privateKey);
}

export function jwtHeader(token: string): { kid: string; alg: string } {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string; alg: string };
}

/** The default route map with no clock tolerance, so a 1-second token expires promptly. */
export async function strictClockConfig(dir: string): Promise<string> {
  const source = await readFile(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), 'utf8');
  const file = join(dir, 'gateway-e2e.yaml');
  await writeFile(file, source.replace(/clockToleranceSec: \d+/, 'clockToleranceSec: 0'));
  return file;
}

/** A fresh PostgreSQL database on the test server, dropped by the returned function. */
export async function temporaryDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tg_e2e_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
