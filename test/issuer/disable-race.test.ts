import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, postForm, startHarness, verdictOf } from './harness.ts';

/**
 * A client disabled while one of its token requests is between reading the client record and
 * caching it. The store wrapper holds one `getProject` call until the test releases it: it
 * stands in for a slow outside database and makes the race deterministic.
 */
interface HeldCall {
  /** Resolves once the held call has started (the client record is already read). */
  readonly reached: Promise<void>;
  release(): void;
}

function storeWithHeldLookup(real: Store): { store: Store; holdNextGetProject(): HeldCall } {
  let held: { reached(): void; released: Promise<void> } | null = null;
  const store = new Proxy(real, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name !== 'getProject') return value.bind(target);
      return async (id: string) => {
        const hold = held;
        held = null;
        if (hold) {
          hold.reached();
          await hold.released;
        }
        return target.getProject(id);
      };
    },
  });
  return {
    store,
    holdNextGetProject() {
      let reached!: () => void;
      let release!: () => void;
      const call = { reached: new Promise<void>((resolve) => (reached = resolve)), release: () => release() };
      held = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return call;
    },
  };
}

const clock = createFakeClock(Date.now() - (Date.now() % 1000));
let dataDir: string;
let real: Store;
let slow: ReturnType<typeof storeWithHeldLookup>;
let a: Harness;
let b: Harness;

beforeAll(async () => {
  dataDir = await migratedDataDir('tokengate-disable-race-');
  real = await openStore({ dataDir, clock });
  slow = storeWithHeldLookup(real);
  a = await startHarness({ clock, store: slow.store });
  // A second replica on the same store, as with PostgreSQL: it learns of the disable from the revocation notification.
  b = await startHarness({ clock, store: slow.store });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await real.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function newClient(): Promise<{ id: string; secret: string }> {
  const { client, secret } = await a.client(['phone']);
  return { id: client.clientId, secret };
}

const askToken = (h: Harness, c: { id: string; secret: string }) =>
  postForm(h.url, { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret });

const verdict = (h: Harness, token: string) => verdictOf(h, token, clock);

/** Either outcome of a request racing a disable is a correct order of the two operations; a usable token is not. */
async function expectNoUsableToken(h: Harness, res: { status: number; json: Record<string, unknown> }): Promise<void> {
  if (res.status === 200) expect(await verdict(h, String(res.json['access_token']))).toBe('token_revoked');
  else expect(res.status).toBe(401);
}

/** A token request whose client lookup is held after reading the client record, and the hold. */
async function requestHeldInLookup(h: Harness, c: { id: string; secret: string }) {
  const held = slow.holdNextGetProject();
  const response = askToken(h, c);
  await held.reached;
  return { response, release: held.release };
}

describe('a client disabled while a token request is reading it', () => {
  it('refuses every later token request and gives the in-flight request no unrevoked token', async () => {
    const c = await newClient();
    const inFlight = await requestHeldInLookup(a, c);
    await a.issuer.setClientEnabled(c.id, false);
    inFlight.release();
    const res = await inFlight.response;
    await expectNoUsableToken(a, res);
    expect((await askToken(a, c)).status).toBe(401);
    clock.advanceSec(5);
    expect((await askToken(a, c)).status).toBe(401);
  });

  it('gives no usable token when the held request resumes in a later second than the disable', async () => {
    const c = await newClient();
    const inFlight = await requestHeldInLookup(a, c);
    await a.issuer.setClientEnabled(c.id, false);
    clock.advanceSec(1);
    inFlight.release();
    const res = await inFlight.response;
    await expectNoUsableToken(a, res);
    expect((await askToken(a, c)).status).toBe(401);
  });

  it('refuses every later token request on another replica whose lookup was in flight when the disable reached it', async () => {
    const c = await newClient();
    const inFlight = await requestHeldInLookup(b, c);
    await a.issuer.setClientEnabled(c.id, false);
    await vi.waitFor(() =>
      expect(
        b.issuer.revocationChecker.isRevoked({
          clientId: c.id,
          iat: clock.nowSec(),
          jti: 'x',
          sub: c.id,
          projectId: '',
          scopes: [],
          exp: 0,
        }),
      ).toBe(true),
    );
    inFlight.release();
    const res = await inFlight.response;
    await expectNoUsableToken(b, res);
    expect((await askToken(b, c)).status).toBe(401);
  });

  it('still issues a working token when the client is disabled and re-enabled while its request reads it', async () => {
    const c = await newClient();
    const inFlight = await requestHeldInLookup(a, c);
    await a.issuer.setClientEnabled(c.id, false);
    await a.issuer.setClientEnabled(c.id, true);
    inFlight.release();
    const res = await inFlight.response;
    expect(res.status).toBe(200);
    expect(await verdict(a, String(res.json['access_token']))).toBe('ok');
    expect((await askToken(a, c)).status).toBe(200);
  });
});
