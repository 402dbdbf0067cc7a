import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

/**
 * Failed client authentications are counted per source address, and the gateway forwards every
 * caller from its own address. A gateway that is not on loopback (the compose network, another
 * host) is played by requests from 127.0.0.2: a loopback alias on Linux, yet not one of the
 * default trusted proxies (127.0.0.1, ::1), so to the upstream it is as foreign as 172.18.0.3.
 */
const GATEWAY = '127.0.0.2';
const ATTACKER = '203.0.113.66';
const CALLER = '198.51.100.7';

interface Credentials {
  readonly clientId: string;
  readonly secret: string;
}

async function newClient(t: TestUpstream): Promise<Credentials> {
  const project = (await t.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as { id: string };
  const client = (await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['phone'] })).body as {
    client_id: string;
    client_secret: string;
  };
  return { clientId: client.client_id, secret: client.client_secret };
}

/** A token request as the gateway forwards it: from the gateway's address, `X-Forwarded-For: caller`. */
function viaGateway(t: TestUpstream, caller: string, credentials: Credentials): Promise<number> {
  const url = new URL('/oauth/token', t.upstream.url);
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.secret,
  }).toString();
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': Buffer.byteLength(body),
    'x-forwarded-for': caller,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: GATEWAY, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** 21 failures from one caller: one past the per-address limit of 20 a minute. */
async function attack(t: TestUpstream): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++)
    statuses.push(await viaGateway(t, ATTACKER, { clientId: `cli_attacker${i}`, secret: 'wrong' }));
  return statuses;
}

describe('a gateway outside the trusted proxies (TRUSTED_PROXIES unset: loopback only)', () => {
  let t: TestUpstream;
  beforeAll(async () => {
    t = await startTestUpstream();
  });
  afterAll(() => t?.destroy());

  it('still issues tokens to correct credentials after one caller behind it exceeded the failure limit', async () => {
    const good = await newClient(t);
    const statuses = await attack(t);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
    expect(await viaGateway(t, CALLER, good)).toBe(200);
    // Every caller shares the gateway's address here, so bad credentials from anyone get 429.
    expect(await viaGateway(t, CALLER, { clientId: good.clientId, secret: 'wrong' })).toBe(429);
    expect(await viaGateway(t, ATTACKER, { clientId: 'cli_attacker21', secret: 'wrong' })).toBe(429);
  });
});

describe('TRUSTED_PROXIES', () => {
  let t: TestUpstream;
  beforeAll(async () => {
    t = await startTestUpstream({ env: { TRUSTED_PROXIES: `10.0.0.0/8, ${GATEWAY}/32` } });
  });
  afterAll(() => t?.destroy());

  it('believes X-Forwarded-For from a listed gateway, so failures count against the caller, not the gateway', async () => {
    const good = await newClient(t);
    const statuses = await attack(t);
    expect(statuses[20]).toBe(429);
    expect(await viaGateway(t, ATTACKER, { clientId: 'cli_attacker21', secret: 'wrong' })).toBe(429);
    expect(await viaGateway(t, CALLER, { clientId: good.clientId, secret: 'wrong' })).toBe(401);
    expect(await viaGateway(t, CALLER, good)).toBe(200);
    expect(await viaGateway(t, ATTACKER, good)).toBe(200);
  });
});
