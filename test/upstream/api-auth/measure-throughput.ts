/**
 * In-process throughput of createApiAuthenticator (no HTTP): `npx node test/upstream/api-auth/measure-throughput.ts`.
 * Not a test (vitest ignores it); prints calls/s for the bearer and the key/secret paths on warm caches.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { createVerifier } from '#auth';
import { createLogger, generateSecret, hashSecret } from '#common';
import { openStore } from '#store';
import { createFakeClock } from '#test/fake-clock.ts';
import { createTokenKit, simpleRevocations, staticKeys, TEST_AUDIENCE, TEST_ISSUER } from '#test/tokens.ts';
import { createApiAuthenticator } from '../../../src/upstream/api-auth/index.ts';

const clock = createFakeClock(Date.now());
const log = createLogger({ level: 'info', destination: new Writable({ write: (_c, _e, d) => d() }) });
const dataDir = await mkdtemp(join(tmpdir(), 'tg-measure-'));
const store = await openStore({ dataDir });
const kit = await createTokenKit(clock);
const verifier = createVerifier({
  issuer: TEST_ISSUER,
  audience: TEST_AUDIENCE,
  algorithms: ['RS256'],
  keys: staticKeys(kit.key),
  revocations: simpleRevocations(),
  clock,
});
const auth = createApiAuthenticator({ verifier, store, log, clock });
const uncached = createApiAuthenticator({ verifier, store, log, clock, cacheTtlMs: 0 });
const project = await store.createProject({ name: 'p', plan: 'business' });
const secret = generateSecret();
const apiKey = await store.createApiKey({ projectId: project.id, secretHash: hashSecret(secret) });
const token = await kit.tokenWithScopes(['phone'], { claims: { project_id: project.id } });
const route = {
  path: '/api/phone/v1/verification',
  scope: 'phone' as const,
  errorExtra: {},
  handle: () => ({ status: 200, body: {} }),
};
const bearerReq = { headers: { authorization: `Bearer ${token}` } } as unknown as IncomingMessage;
const keyReq = { headers: { authorization: secret } } as unknown as IncomingMessage;
const keyQuery = new URLSearchParams({ key: apiKey.key });
const empty = new URLSearchParams();

async function rate(name: string, n: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(n, 500); i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const ms = performance.now() - t0;
  console.log(`${name}: ${Math.round(n / (ms / 1000))} /s, ${((ms * 1000) / n).toFixed(1)} µs each`);
}
await rate('bearer (token + project cached)', 50_000, () => auth.authenticate(bearerReq, empty, route));
await rate('key/secret (key + project cached, secret hashed)', 5_000, () => auth.authenticate(keyReq, keyQuery, route));
await rate('key/secret, lookup cache off (cacheTtlMs 0)', 3_000, () => uncached.authenticate(keyReq, keyQuery, route));
await store.close();
await rm(dataDir, { recursive: true, force: true });
