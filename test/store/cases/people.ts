import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

const HOUR = 60 * 60 * 1000;

export function peopleCases(ctx: SuiteContext): void {
  it('accepts an invitation once: the person is created with the password hash and joins with the role', async () => {
    const account = await ctx.store.createAccount({ name: 'Acme', plan: 'business' });
    const { token, invitation } = await ctx.store.createInvitation({
      accountId: account.id,
      email: 'ann@example.com',
      role: 'owner',
      ttlMs: 72 * HOUR,
    });
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(invitation).toMatchObject({
      email: 'ann@example.com',
      role: 'owner',
      expiresAt: ctx.clock.now() + 72 * HOUR,
    });
    expect(await ctx.store.peekInvitation(token)).toMatchObject({ state: 'valid', user: null });
    const [first, second] = await Promise.all([
      ctx.store.acceptInvitation(token, 'scrypt$hash-a'),
      ctx.store.acceptInvitation(token, 'scrypt$hash-b'),
    ]);
    const states = [first.state, second.state].sort();
    expect(states).toEqual(['used', 'valid']);
    const user = await ctx.store.findUserByEmail('ann@example.com');
    expect(user?.passwordHash).toMatch(/^scrypt\$hash-[ab]$/);
    expect(await ctx.store.listMemberships(user?.id ?? '')).toEqual([{ accountId: account.id, role: 'owner' }]);
    expect(await ctx.store.peekInvitation(token)).toEqual({ state: 'used' });
  });

  it('says an invitation expired after its lifetime, and knows no token it never made', async () => {
    const account = await ctx.store.createAccount({ name: 'Late', plan: 'free' });
    const { token } = await ctx.store.createInvitation({
      accountId: account.id,
      email: 'late@example.com',
      role: 'viewer',
      ttlMs: HOUR,
    });
    const start = ctx.clock.now();
    ctx.clock.set(start + HOUR);
    try {
      expect(await ctx.store.acceptInvitation(token, 'h')).toEqual({ state: 'expired' });
    } finally {
      ctx.clock.set(start);
    }
    expect(await ctx.store.findUserByEmail('late@example.com')).toBeNull();
    expect(await ctx.store.peekInvitation('A'.repeat(43))).toEqual({ state: 'unknown' });
    expect(await ctx.store.peekInvitation('not a token')).toEqual({ state: 'unknown' });
  });

  it('keeps at least one owner: the last owner can be neither demoted nor removed', async () => {
    const account = await ctx.store.createAccount({ name: 'Owned', plan: 'business' });
    const join = async (email: string, role: 'owner' | 'developer') => {
      const { token } = await ctx.store.createInvitation({ accountId: account.id, email, role, ttlMs: HOUR });
      return (await ctx.store.acceptInvitation(token, 'h')).user?.id ?? '';
    };
    const owner = await join('o@example.com', 'owner');
    const dev = await join('d@example.com', 'developer');
    await expect(ctx.store.changeMembership(account.id, owner, 'viewer')).rejects.toMatchObject({ code: 'last_owner' });
    await expect(ctx.store.changeMembership(account.id, owner, null)).rejects.toMatchObject({ code: 'last_owner' });
    expect(await ctx.store.changeMembership(account.id, dev, 'owner')).toBe(true);
    expect(await ctx.store.changeMembership(account.id, owner, null)).toBe(true);
    expect(await ctx.store.listAccountPeople(account.id)).toEqual([
      expect.objectContaining({ userId: dev, email: 'd@example.com', role: 'owner' }),
    ]);
    expect(await ctx.store.changeMembership(account.id, owner, 'viewer')).toBe(false);
  });

  it('ends all of a person’s sessions but the one kept, and only theirs', async () => {
    const account = await ctx.store.createAccount({ name: 'Sessions', plan: 'free' });
    const { token } = await ctx.store.createInvitation({
      accountId: account.id,
      email: 's@example.com',
      role: 'viewer',
      ttlMs: HOUR,
    });
    const userId = (await ctx.store.acceptInvitation(token, 'h')).user?.id ?? '';
    const kept = await ctx.store.createPortalSession(HOUR, userId);
    const other = await ctx.store.createPortalSession(HOUR, userId);
    const operator = await ctx.store.createPortalSession(HOUR);
    expect(kept.userId).toBe(userId);
    expect(await ctx.store.deleteUserSessions(userId, kept.id)).toBe(1);
    expect(await ctx.store.getPortalSession(other.id)).toBeNull();
    expect(await ctx.store.getPortalSession(kept.id)).toMatchObject({ userId });
    expect(await ctx.store.getPortalSession(operator.id)).toMatchObject({ userId: null });
  });
}
