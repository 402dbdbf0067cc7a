import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

const HOUR = 60 * 60 * 1000;
const KEY = { publicKey: 'pQECAyYgAQ', signCount: 0, transports: ['internal', 'hybrid'], label: 'Laptop' };
const binding = (n: number) => n.toString(16).padStart(64, '0');
const challenge = (c: string) => c.padEnd(43, 'A');

export function passkeyCases(ctx: SuiteContext): void {
  async function person(email: string) {
    const account = await ctx.store.createAccount({ name: email, plan: 'business' });
    const { token } = await ctx.store.createInvitation({ accountId: account.id, email, role: 'owner', ttlMs: HOUR });
    return { accountId: account.id, userId: (await ctx.store.acceptInvitation(token, 'h')).user?.id ?? '' };
  }

  it('adds a passkey as a factor, finds it by credential, and refuses the same credential twice', async () => {
    const { userId } = await person('passkey@example.com');
    const id = await ctx.store.addPasskey(userId, { ...KEY, credentialId: 'credential-one-0123' }, [binding(1)]);
    expect(await ctx.store.listFactors(userId)).toEqual([
      expect.objectContaining({ id, kind: 'passkey', label: 'Laptop' }),
    ]);
    expect(await ctx.store.countRecoveryCodes(userId)).toBe(1);
    expect(await ctx.store.secondFactorState(userId)).toEqual({ factors: 1, required: false });
    const found = {
      id,
      userId,
      credentialId: 'credential-one-0123',
      publicKey: KEY.publicKey,
      signCount: 0,
      transports: KEY.transports,
    };
    expect(await ctx.store.findPasskey('credential-one-0123')).toEqual(found);
    expect(await ctx.store.listPasskeys(userId)).toEqual([found]);
    expect(await ctx.store.findPasskey('credential-unknown')).toBeNull();
    await expect(ctx.store.addPasskey(userId, { ...KEY, credentialId: 'credential-one-0123' })).rejects.toMatchObject({
      code: 'passkey_registered',
    });
  });

  it('takes each counter above the last once, and 0 again only from an authenticator that keeps none', async () => {
    const { userId } = await person('counter@example.com');
    const zero = await ctx.store.addPasskey(userId, { ...KEY, credentialId: 'credential-zero-0123' });
    expect(await ctx.store.acceptPasskeyCounter(zero, 0)).toBe(true);
    expect(await ctx.store.acceptPasskeyCounter(zero, 0)).toBe(true);
    expect(await ctx.store.acceptPasskeyCounter(zero, 3)).toBe(true);
    expect(await ctx.store.acceptPasskeyCounter(zero, 0)).toBe(false);
    expect(await ctx.store.acceptPasskeyCounter(zero, 3)).toBe(false);
    const both = await Promise.all([ctx.store.acceptPasskeyCounter(zero, 4), ctx.store.acceptPasskeyCounter(zero, 4)]);
    expect(both.sort()).toEqual([false, true]);
    expect((await ctx.store.findPasskey('credential-zero-0123'))?.signCount).toBe(4);
  });

  it('takes a challenge once, for its purpose, binding and person only, before it expires', async () => {
    const { userId } = await person('challenge@example.com');
    const expiresAt = ctx.clock.now() + 60_000;
    await ctx.store.addPasskeyChallenge({
      challenge: challenge('one'),
      purpose: 'second_step',
      binding: binding(1),
      userId,
      expiresAt,
    });
    await ctx.store.addPasskeyChallenge({
      challenge: challenge('two'),
      purpose: 'sign_in',
      binding: binding(2),
      userId: null,
      expiresAt,
    });
    expect(await ctx.store.takePasskeyChallenge(challenge('one'), 'sign_in', binding(1), userId)).toBe(false);
    expect(await ctx.store.takePasskeyChallenge(challenge('one'), 'second_step', binding(9), userId)).toBe(false);
    expect(await ctx.store.takePasskeyChallenge(challenge('one'), 'second_step', binding(1), null)).toBe(false);
    const both = await Promise.all([
      ctx.store.takePasskeyChallenge(challenge('one'), 'second_step', binding(1), userId),
      ctx.store.takePasskeyChallenge(challenge('one'), 'second_step', binding(1), userId),
    ]);
    expect(both.sort()).toEqual([false, true]);
    ctx.clock.set(expiresAt);
    expect(await ctx.store.takePasskeyChallenge(challenge('two'), 'sign_in', binding(2), null)).toBe(false);
  });

  it('removes passkeys with the operator’s reset', async () => {
    const { userId } = await person('reset-passkey@example.com');
    await ctx.store.addPasskey(userId, { ...KEY, credentialId: 'credential-reset-01' });
    expect(await ctx.store.resetFactors(userId)).toBe(1);
    expect(await ctx.store.findPasskey('credential-reset-01')).toBeNull();
  });
}
