import { beforeEach, expect, it } from 'vitest';
import type { NewRevocation } from '#store';
import { nextRevocationSignal } from '../harness.ts';
import type { SuiteContext } from '../store-suite.ts';

const NOW_S = 1_800_000_000;

const jti = (value: string, expiresAt = NOW_S + 900): NewRevocation => ({
  kind: 'jti',
  value,
  issuedBefore: null,
  expiresAt,
});

export function revocationCases(ctx: SuiteContext): void {
  // Each case starts from an empty live set (seq keeps growing: it is never reused).
  beforeEach(async () => {
    await ctx.store.pruneRevocations(Number.MAX_SAFE_INTEGER);
  });

  it('returns each added entry with an increasing seq and its creation time', async () => {
    const a = await ctx.store.addRevocation(jti('jti-a'));
    const b = await ctx.store.addRevocation({
      kind: 'client',
      value: 'cli_x',
      issuedBefore: NOW_S,
      generation: 4,
      expiresAt: NOW_S + 3660,
    });
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(a).toEqual({
      seq: a.seq,
      kind: 'jti',
      value: 'jti-a',
      issuedBefore: null,
      generation: null,
      expiresAt: NOW_S + 900,
      createdAt: ctx.clock.now(),
    });
    expect(b).toMatchObject({
      kind: 'client',
      value: 'cli_x',
      issuedBefore: NOW_S,
      generation: 4,
      expiresAt: NOW_S + 3660,
    });
    expect((await ctx.store.revocationsSince(a.seq, NOW_S))[0]).toEqual(b);
  });

  it('refuses a generation on a jti entry, and one below 1, at the database', async () => {
    await expect(ctx.store.addRevocation({ ...jti('jti-g'), generation: 2 })).rejects.toThrow();
    await expect(
      ctx.store.addRevocation({ kind: 'client', value: 'cli_y', issuedBefore: NOW_S, generation: 0, expiresAt: NOW_S }),
    ).rejects.toThrow();
  });

  it('returns the live entries after a cursor, oldest first', async () => {
    const a = await ctx.store.addRevocation(jti('a'));
    const b = await ctx.store.addRevocation(jti('b'));
    const c = await ctx.store.addRevocation(jti('c'));
    expect(await ctx.store.revocationsSince(0, NOW_S)).toEqual([a, b, c]);
    expect(await ctx.store.revocationsSince(a.seq, NOW_S)).toEqual([b, c]);
    expect(await ctx.store.revocationsSince(c.seq, NOW_S)).toEqual([]);
  });

  it('pages the feed with a limit so a caller resumes from the last seq', async () => {
    const entries = [];
    for (const value of ['p1', 'p2', 'p3']) entries.push(await ctx.store.addRevocation(jti(value)));
    const page = await ctx.store.revocationsSince(0, NOW_S, 2);
    expect(page).toEqual(entries.slice(0, 2));
    expect(await ctx.store.revocationsSince(page.at(-1)!.seq, NOW_S, 2)).toEqual(entries.slice(2));
  });

  it('rejects a cursor, time or limit that is not a bounded integer before querying', async () => {
    await expect(ctx.store.revocationsSince(Number.NaN, NOW_S)).rejects.toThrow(TypeError);
    await expect(ctx.store.revocationsSince(-1, NOW_S)).rejects.toThrow(TypeError);
    await expect(ctx.store.revocationsSince(0, 1.5)).rejects.toThrow(TypeError);
    await expect(ctx.store.revocationsSince(0, NOW_S, 0)).rejects.toThrow(TypeError);
    await expect(ctx.store.revocationsSince(0, NOW_S, 10_001)).rejects.toThrow(TypeError);
    await expect(ctx.store.pruneRevocations(Number.POSITIVE_INFINITY)).rejects.toThrow(TypeError);
  });

  it('leaves out entries that have expired even before they are pruned', async () => {
    const short = await ctx.store.addRevocation(jti('short', NOW_S + 10));
    const long = await ctx.store.addRevocation(jti('long', NOW_S + 100));
    expect(await ctx.store.revocationsSince(0, NOW_S + 9)).toEqual([short, long]);
    expect(await ctx.store.revocationsSince(0, NOW_S + 10)).toEqual([long]);
  });

  it('prunes exactly the entries whose expiry has passed and counts them', async () => {
    await ctx.store.addRevocation(jti('x1', NOW_S + 10));
    await ctx.store.addRevocation(jti('x2', NOW_S + 20));
    const kept = await ctx.store.addRevocation(jti('x3', NOW_S + 30));
    expect(await ctx.store.pruneRevocations(NOW_S + 20)).toBe(2);
    expect(await ctx.store.pruneRevocations(NOW_S + 20)).toBe(0);
    expect(await ctx.store.revocationsSince(0, 0)).toEqual([kept]);
  });

  it('never reuses a seq after pruning, so old cursors stay valid', async () => {
    const old = await ctx.store.addRevocation(jti('old', NOW_S + 1));
    await ctx.store.pruneRevocations(NOW_S + 1);
    const fresh = await ctx.store.addRevocation(jti('fresh'));
    expect(fresh.seq).toBeGreaterThan(old.seq);
    expect(await ctx.store.revocationsSince(old.seq, NOW_S)).toEqual([fresh]);
  });

  it('wakes onRevocation listeners when an entry is added and stops after unsubscribe', async () => {
    const woke = nextRevocationSignal(ctx.store);
    let calls = 0;
    const unsubscribe = ctx.store.onRevocation(() => calls++);
    unsubscribe();
    const added = await ctx.store.addRevocation(jti('wake'));
    await woke;
    expect(calls).toBe(0);
    expect(await ctx.store.revocationsSince(added.seq - 1, NOW_S)).toEqual([added]);
  });

  it('keeps waking other listeners when one listener throws', async () => {
    const unsubscribe = ctx.store.onRevocation(() => {
      throw new Error('listener bug');
    });
    const woke = nextRevocationSignal(ctx.store);
    await ctx.store.addRevocation(jti('throwing'));
    await expect(woke).resolves.toBeUndefined();
    unsubscribe();
  });

  it('keeps revocations when the project of the revoked client is deleted', async () => {
    const project = await ctx.store.createProject({ name: 'gone', plan: 'business' });
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['email'],
      secretHash: 'h',
    });
    const entry = await ctx.store.addRevocation({
      kind: 'client',
      value: client.clientId,
      issuedBefore: NOW_S,
      expiresAt: NOW_S + 60,
    });
    await ctx.store.deleteProject(project.id);
    expect(await ctx.store.revocationsSince(0, NOW_S)).toEqual([entry]);
  });
}
