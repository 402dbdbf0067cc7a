import { describe, expect, it } from 'vitest';
import { type Answer, arrivals, type Endpoint, jwtHeader, PHONE_PATH, report, type ScaleOut } from './fixture.ts';

interface Refusal {
  at: string;
  kid: string;
  status: number;
  error_code: unknown;
}

/**
 * Emergency rotations (`keys rotate --now`) on each replica in turn, then an ordinary rotation
 * right after: while they run, every token either replica has issued is called at both gateways
 * and both replicas every 200 ms, and none may be refused. The new keys sign at once; the gateways
 * learn them from the key announcement on the revocation feed, not from the unknown-kid refetch
 * (whose cooldown a double rotation used to run into).
 */
export function emergencyRotationCases(stack: () => ScaleOut): void {
  describe('emergency and double rotations behind two gateways on PostgreSQL', () => {
    it('refuses no genuine token through two emergency rotations on different replicas and a rotation after them', {
      timeout: 90_000,
    }, async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { client } = await s.newClient();
      const tokens = [await s.token(client, r1), await s.token(client, r2)];
      const refused: Refusal[] = [];
      let calls = 0;

      const callEverywhere = async () => {
        const issued = await Promise.all([s.tokenRequest(client, r1), s.tokenRequest(client, r2)]);
        for (const answer of issued) {
          expect(answer.status).toBe(200);
          tokens.push(String(answer.body.access_token));
        }
        const checks = tokens.flatMap((token) => s.everywhere.map((at) => ({ token, at })));
        await Promise.all(
          checks.map(async ({ token, at }: { token: string; at: Endpoint }) => {
            const answer: Answer = await s.call(PHONE_PATH, token, at);
            calls += 1;
            if (answer.status !== 200) {
              refused.push({
                at: at.name,
                kid: jwtHeader(token).kid,
                status: answer.status,
                error_code: answer.body.error_code,
              });
            }
          }),
        );
      };
      const keepCalling = async (ms: number) => {
        const until = performance.now() + ms;
        while (performance.now() < until) {
          await callEverywhere();
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };

      const first = await s.adminApi('POST', '/keys/rotate', { now: true }, r1);
      const firstAt = performance.now();
      expect(first.status).toBe(200);
      const k1 = String(first.body.kid);
      expect(jwtHeader(await s.token(client, r1)).kid).toBe(k1);
      const [seen1] = await arrivals(
        [r2],
        (at) => s.tokenRequest(client, at),
        (a) => typeof a.body.access_token === 'string' && jwtHeader(a.body.access_token).kid === k1,
        { since: firstAt, windowMs: 5000, intervalMs: 20 },
      );
      report('emergency rotation on replica 1, replica 2 signing with its key', seen1 ? [seen1] : []);
      expect(seen1?.ms ?? Number.POSITIVE_INFINITY).toBeLessThan(1000);
      await keepCalling(2000);

      // A second emergency rotation, on the other replica, well within the gateways' unknown-kid cooldown.
      const second = await s.adminApi('POST', '/keys/rotate', { now: true }, r2);
      expect(second.status).toBe(200);
      const k2 = String(second.body.kid);
      expect(jwtHeader(await s.token(client, r2)).kid).toBe(k2);
      await keepCalling(2000);

      // An ordinary rotation now would promote a key published moments ago: it is refused, saying when it can run.
      const ordinary = await s.adminCli(['keys', 'rotate'], r1);
      expect(ordinary.code).not.toBe(0);
      expect(ordinary.stderr).toMatch(/published|not before|retry/i);
      await keepCalling(1000);

      expect(calls).toBeGreaterThan(100);
      expect(refused).toEqual([]);
      const listed = await s.admin<{ kid: string; status: string }[]>(['keys', 'list'], r1);
      expect(listed.find((k) => k.kid === k2)?.status).toBe('active');
      expect(listed.find((k) => k.kid === k1)?.status).toBe('retired');
    });
  });
}
