import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RotationTooEarlyError } from '#issuer';
import { decodeJwt } from '../../issuer/harness.ts';
import { type Rig, startRig } from './rig.ts';

/**
 * Issue 17, item 2: a rotation never locks out a genuine token. Two issuer replicas on one store,
 * two gateways (gateway 1 on replica a, gateway 2 on replica b); after every step, fresh tokens of
 * both replicas are presented to both gateways and every one must be accepted. Replica b's key
 * reload, which runs every 10 s, is triggered by hand where a step needs it (rig.ts).
 */
let rig: Rig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig.close();
});

/** Moves the clock to `until` in one-minute steps with traffic, so gateways refresh as max-age says. */
async function timePasses(until: number): Promise<void> {
  const start = rig.clock.now();
  while (rig.clock.now() < until) {
    rig.clock.set(Math.min(until, rig.clock.now() + 60_000));
    await rig.everyTokenAccepted(`${Math.round((rig.clock.now() - start) / 1000)} s later`);
  }
}

const kidOf = (jwt: string) => decodeJwt(jwt).header['kid'];

/**
 * Waits until the gateway completed a key-set fetch beyond `before`: the feed brings the change
 * within milliseconds, but a full run at a load average of 20 once took over 2 s; without the
 * feed it never comes, so the wait's length only matters to a failing run.
 */
async function refetched(gateway: Rig['gateways'][number], before: number): Promise<void> {
  await vi.waitFor(async () => expect(await rig.keySetFetches(gateway)).toBeGreaterThan(before), { timeout: 10_000 });
}

describe('key rotation never locks out a genuine token', () => {
  it('double rotation: the second is refused until its key has been published long enough, then runs', async () => {
    await rig.everyTokenAccepted('before');
    await rig.a.issuer.rotateKeys();
    await rig.everyTokenAccepted('after the first rotation');
    // The README's way of switching the algorithm: rotate twice in a row.
    const second = await rig.a.issuer.rotateKeys().catch((error: unknown) => error);
    await rig.everyTokenAccepted('after the second rotation was asked for');
    expect(second).toBeInstanceOf(RotationTooEarlyError);
    await rig.reload(rig.b);
    await rig.everyTokenAccepted('after replica b reloaded');
    await timePasses((second as RotationTooEarlyError).notBefore);
    await rig.b.issuer.rotateKeys();
    await rig.everyTokenAccepted('after the second rotation ran, on replica b');
    await rig.reload(rig.a);
    await rig.everyTokenAccepted('after replica a reloaded');
  });

  it('junk kid then rotation: junk kids spend the unknown-kid refetch, yet no rotation after them refuses a token', async () => {
    await rig.junkKidAtBothGateways();
    await rig.a.issuer.rotateKeys();
    await rig.everyTokenAccepted('after the first rotation');
    const second = await rig.a.issuer.rotateKeys().catch((error: unknown) => error);
    await rig.everyTokenAccepted('after a second rotation was asked for');
    expect(second).toBeInstanceOf(RotationTooEarlyError);
    await rig.reload(rig.b);
    const notBefore = (second as RotationTooEarlyError).notBefore;
    while (rig.clock.now() < notBefore) {
      // A junk kid in every cooldown window: the gateways never get an unknown-kid refetch of their own.
      await rig.junkKidAtBothGateways();
      rig.clock.set(Math.min(notBefore, rig.clock.now() + 30_000));
      await rig.everyTokenAccepted('while junk kids keep the cooldown spent');
    }
    await rig.junkKidAtBothGateways();
    await rig.a.issuer.rotateKeys();
    await rig.everyTokenAccepted('after the rotation, right after a junk kid');
    await rig.reload(rig.b);
    await rig.everyTokenAccepted('after replica b reloaded');
  });

  it('emergency rotation: the key signs at once, every gateway already holds it, and junk kids change nothing', async () => {
    const [g1, g2] = rig.gateways;
    await rig.junkKidAtBothGateways();
    let before = [await rig.keySetFetches(g1), await rig.keySetFetches(g2)] as const;
    await rig.a.issuer.rotateKeys();
    await rig.reload(rig.b);
    // The new next key reaches both gateways through the feed at once, past their spent cooldown.
    await refetched(g1, before[0]);
    await refetched(g2, before[1]);
    await rig.everyTokenAccepted('after the first rotation');
    await expect(rig.a.issuer.rotateKeys()).rejects.toBeInstanceOf(RotationTooEarlyError);
    before = [await rig.keySetFetches(g1), await rig.keySetFetches(g2)] as const;
    const { kid } = await rig.a.issuer.rotateKeys({ now: true });
    await rig.everyTokenAccepted('at once after the emergency rotation');
    await rig.reload(rig.b);
    await rig.everyTokenAccepted('after replica b reloaded');
    expect([kidOf(await rig.token(rig.a)), kidOf(await rig.token(rig.b))]).toEqual([kid, kid]);
    // A second emergency right away: the key it promotes was announced by the first one.
    await refetched(g1, before[0]);
    await refetched(g2, before[1]);
    await rig.junkKidAtBothGateways();
    await rig.a.issuer.rotateKeys({ now: true });
    await rig.everyTokenAccepted('at once after a second emergency rotation');
  });
});
