import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

const HOUR = 60 * 60 * 1000;
const SECRET = 'A'.repeat(32);
const hash = (n: number) => n.toString(16).padStart(64, '0');

export function secondFactorCases(ctx: SuiteContext): void {
  async function person(email: string, role: 'owner' | 'developer' = 'developer') {
    const account = await ctx.store.createAccount({ name: email, plan: 'business' });
    const { token } = await ctx.store.createInvitation({ accountId: account.id, email, role, ttlMs: HOUR });
    return { accountId: account.id, userId: (await ctx.store.acceptInvitation(token, 'h')).user?.id ?? '' };
  }

  it('confirms a TOTP factor, then accepts each later step once and no earlier one', async () => {
    const { userId } = await person('totp@example.com');
    const id = await ctx.store.addPendingTotp(userId, SECRET);
    expect(await ctx.store.getPendingTotp(userId, ctx.clock.now() - HOUR)).toEqual({
      id,
      secret: SECRET,
      lastStep: null,
    });
    expect(await ctx.store.listFactors(userId)).toEqual([]);
    expect(await ctx.store.acceptTotpStep(id, 5)).toBe(false);
    expect(await ctx.store.confirmTotp(userId, id, 'Phone', 100, [hash(1)])).toBe(true);
    expect(await ctx.store.confirmTotp(userId, id, 'Phone', 100)).toBe(false);
    expect(await ctx.store.listFactors(userId)).toEqual([
      expect.objectContaining({ id, kind: 'totp', label: 'Phone' }),
    ]);
    expect(await ctx.store.acceptTotpStep(id, 100)).toBe(false);
    expect(await ctx.store.acceptTotpStep(id, 99)).toBe(false);
    const both = await Promise.all([ctx.store.acceptTotpStep(id, 101), ctx.store.acceptTotpStep(id, 101)]);
    expect(both.sort()).toEqual([false, true]);
    expect(await ctx.store.listTotpFactors(userId)).toEqual([{ id, secret: SECRET, lastStep: 101 }]);
    expect(await ctx.store.secondFactorState(userId)).toEqual({ factors: 1, required: false });
  });

  it('uses a recovery code once, and replaces the codes', async () => {
    const { userId } = await person('codes@example.com');
    await ctx.store.replaceRecoveryCodes(userId, [hash(1), hash(2)]);
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(2);
    expect(await ctx.store.useRecoveryCode(userId, hash(1))).toBe(true);
    expect(await ctx.store.useRecoveryCode(userId, hash(1))).toBe(false);
    expect(await ctx.store.useRecoveryCode(userId, hash(3))).toBe(false);
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(1);
    await ctx.store.replaceRecoveryCodes(userId, [hash(4)]);
    expect(await ctx.store.useRecoveryCode(userId, hash(2))).toBe(false);
    expect(await ctx.store.useRecoveryCode(userId, hash(4))).toBe(true);
  });

  it('keeps the last factor of a person whose account requires 2FA, and resets on the operator’s word', async () => {
    const { userId, accountId } = await person('last@example.com', 'owner');
    const first = await ctx.store.addPendingTotp(userId, SECRET);
    await ctx.store.confirmTotp(userId, first, 'One', 1, [hash(9)]);
    expect(await ctx.store.setAccountRequire2fa(accountId, true)).toBe(true);
    expect(await ctx.store.setAccountRequire2fa('acc_none', true)).toBeNull();
    expect(await ctx.store.secondFactorState(userId)).toEqual({ factors: 1, required: true });
    await expect(ctx.store.removeFactor(userId, first)).rejects.toMatchObject({ code: 'last_factor' });
    const second = await ctx.store.addPendingTotp(userId, 'B'.repeat(32));
    await ctx.store.confirmTotp(userId, second, 'Two', 1);
    expect(await ctx.store.removeFactor(userId, first)).toBe(true);
    expect(await ctx.store.removeFactor(userId, first)).toBe(false);
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(1);
    expect(await ctx.store.setAccountRequire2fa(accountId, false)).toBe(false);
    expect(await ctx.store.getAccountRequire2fa(accountId)).toBe(false);
    expect(await ctx.store.removeFactor(userId, second)).toBe(true);
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(0);
    const third = await ctx.store.addPendingTotp(userId, SECRET);
    await ctx.store.confirmTotp(userId, third, 'Three', 1, [hash(7)]);
    expect(await ctx.store.resetFactors(userId)).toBe(1);
    expect(await ctx.store.secondFactorState(userId)).toEqual({ factors: 0, required: false });
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(0);
  });

  it('lists a person’s signed-in sessions (not a pending one) and ends one by its number', async () => {
    const { userId } = await person('devices@example.com');
    const laptop = await ctx.store.createPortalSession(HOUR, userId, { userAgent: 'Firefox', address: '10.0.0.1' });
    const pending = await ctx.store.createPortalSession(HOUR, userId, { pending: true });
    expect(await ctx.store.getPortalSession(pending.id)).toMatchObject({ pending: true });
    ctx.clock.set(ctx.clock.now() + 2 * 60_000);
    const phone = await ctx.store.createPortalSession(HOUR, userId, { userAgent: 'Safari', address: '10.0.0.2' });
    let listed = await ctx.store.listUserSessions(userId);
    expect(listed.map((s) => s.userAgent)).toEqual(['Safari', 'Firefox']);
    ctx.clock.set(ctx.clock.now() + 1000);
    await ctx.store.touchPortalSession(laptop.id, '10.0.0.9');
    listed = await ctx.store.listUserSessions(userId);
    expect(listed[0]).toMatchObject({ userAgent: 'Firefox', address: '10.0.0.9', lastSeenAt: ctx.clock.now() });
    expect(await ctx.store.deleteUserSession('usr_other', listed[1]?.seq ?? 0)).toBe(false);
    expect(await ctx.store.deleteUserSession(userId, listed[1]?.seq ?? 0)).toBe(true);
    expect(await ctx.store.getPortalSession(phone.id)).toBeNull();
    expect(await ctx.store.getPortalSession(laptop.id)).not.toBeNull();
  });
}
