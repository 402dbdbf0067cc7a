import { rm } from 'node:fs/promises';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '#store';
import { RotationTooEarlyError } from '#issuer';
import { NEXT_KEY_MIN_PUBLISHED_SEC } from '../../src/issuer/limits.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { decodeJwt, type Harness, postForm, startHarness, startHarnessWithClient } from './harness.ts';

const clock = createFakeClock(Date.now());
let h: Harness;
let id: string;
let secret: string;

beforeAll(async () => {
  ({ h, id, secret } = await startHarnessWithClient(clock, ['address']));
});
afterAll(() => h.close());

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

async function jwks(url = h.url): Promise<{ status: number; headers: Headers; body: JSONWebKeySet }> {
  const res = await fetch(`${url}/.well-known/jwks.json`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as JSONWebKeySet };
}

async function token(url = h.url): Promise<string> {
  const res = await postForm(url, { grant_type: 'client_credentials', client_id: id, client_secret: secret });
  return String(res.json['access_token']);
}

async function verifies(jwt: string, url = h.url): Promise<boolean> {
  const set = createLocalJWKSet((await jwks(url)).body);
  const options = {
    issuer: h.config.issuer,
    audience: h.config.audience,
    typ: 'at+jwt',
    algorithms: ['RS256'],
    currentDate: new Date(clock.now()),
  };
  return jwtVerify(jwt, set, options).then(
    () => true,
    () => false,
  );
}

const kidOf = (jwt: string) => decodeJwt(jwt).header['kid'];

describe('key set endpoint', () => {
  it('publishes the active and the next key with public members only, kid, alg and use', async () => {
    const { status, headers, body } = await jwks();
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(body.keys).toHaveLength(2);
    for (const key of body.keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), e: 'AQAB' });
      expect(Buffer.from(String(key.n), 'base64url').length * 8).toBeGreaterThanOrEqual(2048);
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    }
    expect(body.keys[0]?.kid).toBe(kidOf(await token()));
  });

  it('is cacheable: public max-age, a strong ETag and 304 on If-None-Match', async () => {
    const first = await fetch(`${h.url}/.well-known/jwks.json`);
    const etag = first.headers.get('etag') ?? '';
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${h.url}/.well-known/jwks.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
  });

  it('answers other methods with 405 and Allow', async () => {
    const res = await fetch(`${h.url}/.well-known/jwks.json`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('authorization server metadata', () => {
  it('publishes RFC 8414 metadata with every URL under the issuer', async () => {
    const res = await fetch(`${h.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: h.url,
      token_endpoint: `${h.url}/oauth/token`,
      revocation_endpoint: `${h.url}/oauth/revoke`,
      jwks_uri: `${h.url}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      revocation_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      introspection_endpoint: `${h.url}/oauth/introspect`,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      introspection_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      scopes_supported: ['address', 'phone', 'email'],
      dpop_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
    });
  });

  it('serves the metadata where RFC 8414 puts it for an issuer with a path, so standard discovery finds it', async () => {
    const issuer = 'https://api.example.test/tg';
    // On the file's store: the metadata is this configuration's, and a store of its own cost a copy and an open.
    const prefixed = await startHarness({ store: h.store, config: { issuer, audience: issuer } });
    try {
      const res = await fetch(`${prefixed.url}/.well-known/oauth-authorization-server/tg`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        issuer,
        token_endpoint: `${issuer}/oauth/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
      });
      // openid-client asks https://api.example.test/.well-known/oauth-authorization-server/tg; the fetch reaches this issuer.
      const config = await client.discovery(new URL(issuer), 'any-client', undefined, client.None(), {
        algorithm: 'oauth2',
        [client.customFetch]: (url, options) => fetch(url.replace('https://api.example.test', prefixed.url), options),
      });
      expect(config.serverMetadata().issuer).toBe(issuer);
    } finally {
      await prefixed.close();
    }
  });
});

describe('rotation', () => {
  it('promotes the pre-published next key, keeps the old one published and old tokens verifiable', async () => {
    const before = await jwks();
    const oldToken = await token();
    const [activeKid, nextKid] = before.body.keys.map((k) => k.kid);
    expect(await h.issuer.rotateKeys()).toEqual({ kid: nextKid });
    const newToken = await token();
    expect(kidOf(newToken)).toBe(nextKid);
    const after = await jwks();
    expect(after.body.keys.map((k) => k.kid)).toEqual([nextKid, expect.any(String), activeKid]);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(await verifies(oldToken)).toBe(true);
    expect(await verifies(newToken)).toBe(true);
    const keys = await h.issuer.listKeys();
    expect(keys.find((k) => k.kid === activeKid)).toMatchObject({
      status: 'retired',
      retiredAt: expect.any(String),
      removeAfter: expect.any(String),
    });
    expect(keys.find((k) => k.kid === nextKid)).toMatchObject({
      status: 'active',
      activatedAt: expect.any(String),
      removeAfter: null,
    });
    expect(keys.filter((k) => k.status === 'next')).toHaveLength(1);
  });

  it('keeps a retired key published until every token it signed has expired (3600 s + 60 s skew), then removes it', async () => {
    const retired = (await h.issuer.listKeys()).find((k) => k.status === 'retired');
    clock.advanceSec(3600);
    await h.issuer.listKeys();
    expect((await jwks()).body.keys.map((k) => k.kid)).toContain(retired?.kid);
    clock.advanceSec(61);
    expect((await h.issuer.listKeys()).map((k) => k.kid)).not.toContain(retired?.kid);
    expect((await jwks()).body.keys.map((k) => k.kid)).not.toContain(retired?.kid);
  });

  it('lets another replica on the same store sign with the promoted key at once: the store announces the rotation', async () => {
    const replica = await startHarness({ store: h.store, clock });
    try {
      const { kid } = await replica.issuer.rotateKeys();
      expect(kidOf(await token(replica.url))).toBe(kid);
      await vi.waitFor(async () => expect(kidOf(await token())).toBe(kid));
      const newNext = (await replica.issuer.listKeys()).find((k) => k.status === 'next')?.kid ?? '';
      expect(h.issuer.keyResolver.get(newNext)).toBeDefined();
      expect(h.issuer.keyResolver.alg?.(kid)).toBe('RS256');
    } finally {
      await replica.close();
    }
  });

  it('runs two rotations requested at once on two replicas as one: one key promoted, one next key left', async () => {
    const replica = await startHarness({ store: h.store, clock });
    try {
      clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
      const next = (await h.issuer.listKeys()).find((k) => k.status === 'next')?.kid;
      expect(await Promise.all([h.issuer.rotateKeys(), replica.issuer.rotateKeys()])).toEqual([
        { kid: next },
        { kid: next },
      ]);
      const keys = await h.issuer.listKeys();
      expect(keys.filter((k) => k.status === 'active').map((k) => k.kid)).toEqual([next]);
      expect(keys.filter((k) => k.status === 'next')).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });

  it('answers a rotation that read the keys before two others landed with the key they promoted, not a 500', async () => {
    const { store, holdNextList } = stallingStore(h.store);
    const replica = await startHarness({ store, clock });
    try {
      const release = holdNextList();
      // It reads the keys, then stalls while two rotations (another admin, another replica) run to the end.
      clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
      const late = replica.issuer.rotateKeys();
      await h.issuer.rotateKeys();
      clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
      const { kid } = await h.issuer.rotateKeys();
      release();
      expect(await late).toEqual({ kid });
      const keys = await h.issuer.listKeys();
      expect(keys.filter((k) => k.status === 'active').map((k) => k.kid)).toEqual([kid]);
      expect(keys.filter((k) => k.status === 'next')).toHaveLength(1);
      expect(replica.logs()).not.toContain('"level":50');
    } finally {
      await replica.close();
    }
  });

  it('answers the promoted kid and signs with it even when a key reload that read the old keys is in flight', async () => {
    const { store, holdNextList } = stallingStore(h.store);
    const replica = await startHarness({ store, clock });
    let release = () => {};
    try {
      clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
      const next = (await replica.issuer.listKeys()).find((k) => k.status === 'next')?.kid;
      release = holdNextList();
      // A reload (the periodic one, or `keys list`) reads the keys as they are before the rotation, then stalls.
      const reload = replica.issuer.listKeys();
      const rotation = replica.issuer.rotateKeys();
      setTimeout(release, 300);
      await reload;
      expect(await rotation).toEqual({ kid: next });
      const { client, secret: clientSecret } = await replica.client(['address']);
      const issued = await postForm(replica.url, {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: clientSecret,
      });
      expect(kidOf(String(issued.json['access_token']))).toBe(next);
    } finally {
      release();
      await replica.close();
    }
  });
});

describe('rotation timeline', () => {
  it('refuses a second rotation right after the first, says from when it can run, and runs it then', async () => {
    const own = createFakeClock(Date.now());
    const fresh = await startHarness({ clock: own });
    try {
      // The next key of the first start was in every key set ever served: it may sign at once.
      const first = await fresh.issuer.rotateKeys();
      const next = (await fresh.issuer.listKeys()).find((k) => k.status === 'next');
      const notBefore = Date.parse(next?.createdAt ?? '') + NEXT_KEY_MIN_PUBLISHED_SEC * 1000;
      expect(next?.promotableAt).toBe(new Date(notBefore).toISOString());
      own.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC - 1);
      const refused = await fresh.issuer.rotateKeys().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RotationTooEarlyError);
      expect(refused).toMatchObject({ notBefore, retryAfterSec: 1 });
      expect((refused as Error).message).toContain(`rotate at or after ${new Date(notBefore).toISOString()} (in 1 s)`);
      await expect(fresh.issuer.rotateKeys({ now: false })).rejects.toBeInstanceOf(RotationTooEarlyError);
      const active = (await fresh.issuer.listKeys()).filter((k) => k.status === 'active').map((k) => k.kid);
      expect(active).toEqual([first.kid]);
      own.advanceSec(1);
      expect(await fresh.issuer.rotateKeys()).toEqual({ kid: next?.kid });
    } finally {
      await fresh.close();
    }
  });

  it('promotes a next key published moments ago in an emergency rotation, and says so in the log', async () => {
    const own = createFakeClock(Date.now());
    const fresh = await startHarness({ clock: own });
    try {
      await fresh.issuer.rotateKeys();
      const next = (await fresh.issuer.listKeys()).find((k) => k.status === 'next')?.kid;
      own.advanceSec(2);
      expect(await fresh.issuer.rotateKeys({ now: true })).toEqual({ kid: next });
      expect(fresh.logs()).toContain('emergency rotation: promoting a next key published for less than');
    } finally {
      await fresh.close();
    }
  });
});

/** The store, except that the listSigningKeys call after holdNextList() reads the keys, then waits for the release. */
function stallingStore(target: Store): { store: Store; holdNextList(): () => void } {
  let hold: Promise<void> | undefined;
  const listSigningKeys = async () => {
    const keys = await target.listSigningKeys();
    const waiting = hold;
    hold = undefined;
    if (waiting) await waiting;
    return keys;
  };
  return {
    store: { ...target, listSigningKeys },
    holdNextList() {
      let release = () => {};
      hold = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

describe('restart', () => {
  it('keeps keys and clients: the same key set, the old secret works, old tokens verify', async () => {
    const first = await startHarness({ clock });
    const c = await first.client(['phone']);
    const form = { grant_type: 'client_credentials', client_id: c.client.clientId, client_secret: c.secret };
    const oldToken = String((await postForm(first.url, form)).json['access_token']);
    const kids = (await jwks(first.url)).body.keys.map((k) => k.kid);
    await first.close({ keepData: true });
    const second = await startHarness({ clock, dataDir: first.dataDir });
    try {
      expect((await jwks(second.url)).body.keys.map((k) => k.kid)).toEqual(kids);
      const fresh = await postForm(second.url, form);
      expect(fresh.status).toBe(200);
      expect(kidOf(String(fresh.json['access_token']))).toBe(kidOf(oldToken));
      const set = createLocalJWKSet((await jwks(second.url)).body);
      const options = {
        issuer: first.config.issuer,
        audience: first.config.audience,
        currentDate: new Date(clock.now()),
      };
      await expect(jwtVerify(oldToken, set, options)).resolves.toBeDefined();
    } finally {
      await second.close();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });
});
