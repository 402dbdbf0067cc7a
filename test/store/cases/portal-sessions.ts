import { createHash } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MAX_PORTAL_SESSIONS } from '../../../src/store/portal-sessions.ts';
import { START_MS, type SuiteContext } from '../store-suite.ts';

const TTL_MS = 8 * 60 * 60 * 1000;
const BASE64URL_256_BITS = /^[A-Za-z0-9_-]{43}$/;
const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export function portalSessionCases(ctx: SuiteContext): void {
  // Each case starts from an empty table at START_MS: far in the future every session has expired.
  beforeEach(async () => {
    ctx.clock.set(Number.MAX_SAFE_INTEGER);
    while ((await ctx.store.prunePortalSessions(10_000)) > 0);
    ctx.clock.set(START_MS);
  });
  afterEach(() => ctx.clock.set(START_MS));

  it('creates a session with a random 256-bit id and CSRF token and finds it by its id', async () => {
    const a = await ctx.store.createPortalSession(TTL_MS);
    const b = await ctx.store.createPortalSession(TTL_MS);
    for (const value of [a.id, a.csrfToken, b.id, b.csrfToken]) expect(value).toMatch(BASE64URL_256_BITS);
    expect(new Set([a.id, a.csrfToken, b.id, b.csrfToken]).size).toBe(4);
    expect(a).toEqual({
      id: a.id,
      csrfToken: a.csrfToken,
      expiresAt: START_MS + TTL_MS,
      flash: null,
      userId: null,
      pending: false,
      lastSeenAt: START_MS,
    });
    expect(await ctx.store.getPortalSession(a.id)).toEqual(a);
    expect(await ctx.store.getPortalSession(b.id)).toEqual(b);
  });

  it('finds nothing for an unknown, malformed or oversized id', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    for (const id of [
      '',
      'x',
      `${session.id}x`,
      session.id.slice(1),
      'A'.repeat(43),
      "'; DROP TABLE portal_sessions; --",
      '\u0000'.repeat(43),
      'x'.repeat(10_000),
    ]) {
      expect(await ctx.store.getPortalSession(id), id.slice(0, 50)).toBeNull();
    }
    expect(await ctx.store.getPortalSession(session.id)).not.toBeNull();
  });

  it('treats a session as gone from the moment it expires, and its notice can no longer be set', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    ctx.clock.set(START_MS + TTL_MS - 1);
    expect(await ctx.store.getPortalSession(session.id)).toEqual(session);
    ctx.clock.set(START_MS + TTL_MS);
    expect(await ctx.store.getPortalSession(session.id)).toBeNull();
    expect(await ctx.store.setPortalSessionFlash(session.id, 'late')).toBe(false);
  });

  it('stores only a SHA-256 digest of the session id: a reader of the database never sees the cookie', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    await ctx.store.close();
    const seen = await ctx.harness.dump();
    ctx.store = await ctx.harness.open(ctx.clock);
    // The reader does see the row (its digest and CSRF token), so the dump covers the table.
    expect(seen).toContain(sha256Hex(session.id));
    expect(seen).toContain(session.csrfToken);
    expect(seen).not.toContain(session.id);
    expect(seen).not.toContain(Buffer.from(session.id, 'base64url').toString('latin1'));
    expect(seen).not.toContain(Buffer.from(session.id, 'base64url').toString('hex'));
    // ... and the digest read from the database is no cookie.
    expect(await ctx.store.getPortalSession(sha256Hex(session.id))).toBeNull();
  });

  it('keeps a session, its CSRF token and its notice across close and reopen (restart)', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    await ctx.store.setPortalSessionFlash(session.id, 'Project “durable” created.');
    await ctx.store.close();
    ctx.store = await ctx.harness.open(ctx.clock);
    expect(await ctx.store.getPortalSession(session.id)).toEqual({ ...session, flash: 'Project “durable” created.' });
  });

  it('gives the flash notice out once: set, taken, then gone', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    expect(await ctx.store.takePortalSessionFlash(session.id)).toBeNull();
    expect(await ctx.store.setPortalSessionFlash(session.id, 'Token revoked.')).toBe(true);
    expect((await ctx.store.getPortalSession(session.id))?.flash).toBe('Token revoked.');
    expect(await ctx.store.takePortalSessionFlash(session.id)).toBe('Token revoked.');
    expect(await ctx.store.takePortalSessionFlash(session.id)).toBeNull();
    expect((await ctx.store.getPortalSession(session.id))?.flash).toBeNull();
    expect(await ctx.store.setPortalSessionFlash('unknown', 'x')).toBe(false);
  });

  it('gives the notice to exactly one of several requests taking it at once', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    await ctx.store.setPortalSessionFlash(session.id, 'once');
    const taken = await Promise.all(Array.from({ length: 8 }, () => ctx.store.takePortalSessionFlash(session.id)));
    expect(taken.filter((notice) => notice !== null)).toEqual(['once']);
  });

  it('ends a session on sign-out, and a second sign-out finds nothing', async () => {
    const session = await ctx.store.createPortalSession(TTL_MS);
    const other = await ctx.store.createPortalSession(TTL_MS);
    expect(await ctx.store.deletePortalSession(session.id)).toBe(true);
    expect(await ctx.store.getPortalSession(session.id)).toBeNull();
    expect(await ctx.store.deletePortalSession(session.id)).toBe(false);
    expect(await ctx.store.getPortalSession(other.id)).toEqual(other);
  });

  it('prunes only expired sessions, at most the limit per call, earliest expiry first', async () => {
    const early = await ctx.store.createPortalSession(1000);
    const middle = await ctx.store.createPortalSession(2000);
    const late = await ctx.store.createPortalSession(3000);
    const live = await ctx.store.createPortalSession(TTL_MS);
    ctx.clock.set(START_MS + 3000);
    expect(await ctx.store.prunePortalSessions(2)).toBe(2);
    // What is left expired is still refused before it is pruned.
    expect(await ctx.store.getPortalSession(late.id)).toBeNull();
    ctx.clock.set(START_MS + 2999);
    expect(await ctx.store.getPortalSession(early.id)).toBeNull();
    expect(await ctx.store.getPortalSession(middle.id)).toBeNull();
    expect(await ctx.store.getPortalSession(late.id)).toEqual(late);
    ctx.clock.set(START_MS + 3000);
    expect(await ctx.store.prunePortalSessions(2)).toBe(1);
    expect(await ctx.store.prunePortalSessions()).toBe(0);
    expect(await ctx.store.getPortalSession(live.id)).toEqual(live);
  });

  it('rejects a lifetime or prune limit that is not a positive bounded integer', async () => {
    await expect(ctx.store.createPortalSession(0)).rejects.toThrow(TypeError);
    await expect(ctx.store.createPortalSession(1.5)).rejects.toThrow(TypeError);
    await expect(ctx.store.prunePortalSessions(0)).rejects.toThrow(TypeError);
    await expect(ctx.store.prunePortalSessions(10_001)).rejects.toThrow(TypeError);
  });

  it(`keeps at most ${MAX_PORTAL_SESSIONS} sessions: each one created beyond that removes the oldest`, {
    timeout: 60_000,
  }, async () => {
    const created = [];
    for (let i = 0; i < MAX_PORTAL_SESSIONS + 2; i++) created.push(await ctx.store.createPortalSession(TTL_MS));
    const found = await Promise.all(created.map((session) => ctx.store.getPortalSession(session.id)));
    expect(found.slice(0, 2)).toEqual([null, null]);
    expect(found.slice(2)).toEqual(created.slice(2));
  });
}
