import { describe, expect, it, vi } from 'vitest';
import {
  type Answer,
  arrivals,
  type ClientCredentials,
  everyOne,
  PHONE_PATH,
  report,
  type ScaleOut,
  verdicts,
} from './fixture.ts';

/**
 * Replica 2 is SIGKILLed mid-run (a crash, an out-of-memory kill) and later restarted. The tests
 * run in order and share the client and tokens made along the way.
 */
const REVOKED = { status: 401, error_code: '1024', inTime: true };

/** A token from each gateway, then a call with it at the same gateway: the answers, in order. */
async function round(s: ScaleOut, client: ClientCredentials): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const gateway of s.gateways) {
    const issued = await s.tokenRequest(client, gateway);
    answers.push(issued);
    const token = issued.body.access_token;
    if (typeof token === 'string') answers.push(await s.call(PHONE_PATH, token, gateway));
  }
  return answers;
}

export function failoverCases(stack: () => ScaleOut): void {
  describe('an upstream replica killed and restarted behind two gateways on PostgreSQL', () => {
    let client: ClientCredentials;
    /** Issued by replica 2 before it was killed. */
    let fromKilled: string;
    /** Revoked on replica 1 while replica 2 was down. */
    let revokedWhileDown: string;

    it('keeps issuing tokens and serving calls at both gateways through replica 1 once the balancer skips a SIGKILLed replica 2', async () => {
      const s = stack();
      const [, r2] = s.replicas;
      ({ client } = await s.newClient());
      fromKilled = await s.token(client, r2);
      for (const gateway of s.gateways) expect((await s.call(PHONE_PATH, fromKilled, gateway)).status).toBe(200);

      // Traffic goes on while the replica dies; what the gateways answer until the balancer skips it is printed.
      const meanwhile: number[] = [];
      let stopTraffic = false;
      const traffic = (async () => {
        while (!stopTraffic) for (const a of await round(s, client)) meanwhile.push(a.status);
      })();
      await vi.waitFor(() => expect(meanwhile.length).toBeGreaterThan(4), { timeout: 10_000 });
      const killed = performance.now();
      await r2.kill();
      await vi.waitFor(() => expect(s.balancer.isUp(1)).toBe(false), { timeout: 5_000, interval: 5 });
      const skippedMs = Math.round(performance.now() - killed);
      stopTraffic = true;
      await traffic;
      const tally = Object.entries(Object.groupBy(meanwhile, (status) => String(status)))
        .map(([status, list]) => `${list?.length ?? 0}× ${status}`)
        .join(', ');
      console.log(
        `[scaleout] replica 2 SIGKILLed: skipped by the balancer after ${skippedMs} ms; gateway answers around the kill: ${tally}; balancer 502s so far: ${s.balancer.failures()}`,
      );

      // From here on nothing may fail: neither what the test sends nor the gateways' own key-set and feed requests.
      const failuresAtSkip = s.balancer.failures();
      const after: number[] = [];
      for (let i = 0; i < 10; i++) for (const a of await round(s, client)) after.push(a.status);
      for (const gateway of s.gateways) after.push((await s.call(PHONE_PATH, fromKilled, gateway)).status);
      expect(after).toEqual(after.map(() => 200));
      expect(after).toHaveLength(42);
      expect(s.balancer.failures()).toBe(failuresAtSkip);
    });

    it('refuses at both gateways within 1 s a token revoked on replica 1 while replica 2 is down', async () => {
      const s = stack();
      const [r1] = s.replicas;
      revokedWhileDown = await s.token(client, s.gateways[0]);
      for (const gateway of s.gateways) expect((await s.call(PHONE_PATH, revokedWhileDown, gateway)).status).toBe(200);

      expect((await s.adminApi('POST', '/tokens/revoke', { token: revokedWhileDown }, r1)).status).toBe(200);
      const answered = performance.now();
      const seen = await arrivals(
        [...s.gateways, r1],
        (at) => s.call(PHONE_PATH, revokedWhileDown, at),
        (a) => a.status !== 200,
        { since: answered },
      );
      report('token revoked on replica 1 while replica 2 is down, refused', seen);
      expect(verdicts(seen, 1000)).toEqual(everyOne([...s.gateways, r1], REVOKED));
    });

    it('takes the restarted replica back: it refuses what was revoked meanwhile, its tokens pass both gateways, and gateway traffic reaches it again', {
      // A process start on a loaded machine (the stack's four took 10 s at a load of 14 on two cores).
      timeout: 60_000,
    }, async () => {
      const s = stack();
      const [, r2] = s.replicas;
      const restarting = performance.now();
      await r2.restart();
      await vi.waitFor(() => expect(s.balancer.isUp(1)).toBe(true), { timeout: 5_000, interval: 5 });
      console.log(
        `[scaleout] replica 2 restarted: back in the balancer ${Math.round(performance.now() - restarting)} ms after the start`,
      );

      expect(await s.call(PHONE_PATH, revokedWhileDown, r2)).toMatchObject({
        status: 401,
        body: { error_code: '1024', message: 'OAuth key has been revoked' },
      });
      const fresh = await s.token(client, r2);
      for (const at of s.everywhere) {
        for (const token of [fresh, fromKilled]) {
          expect({ at: at.name, status: (await s.call(PHONE_PATH, token, at)).status }).toEqual({
            at: at.name,
            status: 200,
          });
        }
      }
      const hitsBefore = s.balancer.hits();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) for (const a of await round(s, client)) statuses.push(a.status);
      expect(statuses).toEqual(statuses.map(() => 200));
      expect((s.balancer.hits()[1] ?? 0) - (hitsBefore[1] ?? 0)).toBeGreaterThan(0);
    });

    it('refuses at both gateways within 1 s a token revoked through the restarted replica', async () => {
      const s = stack();
      const [, r2] = s.replicas;
      const token = await s.token(client, r2);
      for (const gateway of s.gateways) expect((await s.call(PHONE_PATH, token, gateway)).status).toBe(200);

      expect((await s.adminApi('POST', '/tokens/revoke', { token }, r2)).status).toBe(200);
      const answered = performance.now();
      const seen = await arrivals(
        s.everywhere,
        (at) => s.call(PHONE_PATH, token, at),
        (a) => a.status !== 200,
        {
          since: answered,
        },
      );
      report('token revoked on the restarted replica 2, refused', seen);
      expect(verdicts(seen, 1000)).toEqual(everyOne(s.everywhere, REVOKED));
    });
  });
}
