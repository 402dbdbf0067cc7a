import { describe, expect, it } from 'vitest';
import { type Arrival, arrivals, type CreatedClient, jwtHeader, PHONE_PATH, report, type ScaleOut } from './fixture.ts';

interface KeyRow {
  kid: string;
  status: string;
}

/**
 * A normal `keys rotate` on one replica: the next key (published since the first start, so in
 * both gateways' key sets before they served anything) starts signing, the old one stays
 * published. The tests run in order.
 */
export function rotationCases(stack: () => ScaleOut): void {
  describe('a signing-key rotation on one replica behind two gateways on PostgreSQL', () => {
    let client: CreatedClient;
    let promoted: string;
    let rotatedAt: number;
    /** Replica 2's token requests from the rotation on, until one is signed with the promoted key. */
    let replica2Signing: Promise<Arrival[]>;

    it('keeps tokens signed before and after a keys rotate on replica 1 verifying at both gateways and both replicas', {
      // Five admin CLI processes: seconds each on a loaded machine.
      timeout: 60_000,
    }, async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      ({ client } = await s.newClient());
      const keys = await s.admin<KeyRow[]>(['keys', 'list'], r2);
      const active = keys.find((k) => k.status === 'active')?.kid;
      const next = keys.find((k) => k.status === 'next')?.kid;
      const [beforeR1, beforeR2] = [await s.token(client, r1), await s.token(client, r2)];
      expect([jwtHeader(beforeR1).kid, jwtHeader(beforeR2).kid]).toEqual([active, active]);

      ({ kid: promoted } = await s.admin<{ kid: string }>(['keys', 'rotate'], r1));
      rotatedAt = performance.now();
      // Watched from now, while this test goes on: the next test reads when it happened.
      replica2Signing = arrivals(
        [r2],
        (at) => s.tokenRequest(client, at),
        (a) => typeof a.body.access_token === 'string' && jwtHeader(a.body.access_token).kid === promoted,
        { since: rotatedAt, windowMs: 15_000, intervalMs: 50 },
      );
      expect(promoted).toBe(next);
      const after = await s.token(client, r1);
      expect(jwtHeader(after).kid).toBe(promoted);

      for (const at of s.everywhere) {
        for (const [label, token] of [
          ['before, from replica 1', beforeR1],
          ['before, from replica 2', beforeR2],
          ['after, from replica 1', after],
        ] as const) {
          const { status } = await s.call(PHONE_PATH, token, at);
          expect({ at: at.name, token: label, status }).toEqual({ at: at.name, token: label, status: 200 });
        }
      }
      // Not on replica 2: `keys list` reloads the keys of the replica it asks, which would make
      // replica 2 sign with the promoted key at once and void the next test's measurement.
      const listed = await s.admin<KeyRow[]>(['keys', 'list'], r1);
      expect(listed.find((k) => k.kid === promoted)?.status).toBe('active');
      expect(listed.find((k) => k.kid === active)?.status).toBe('retired');
    });

    it('has replica 2 sign with the promoted key within 1 s (the store announces the rotation), and those tokens pass both gateways', {
      timeout: 30_000,
    }, async () => {
      const s = stack();
      const [, r2] = s.replicas;
      const [seen] = await replica2Signing;
      report(
        'keys rotated on replica 1, replica 2 signing with the new key',
        seen ? [seen] : [],
        'the rotation is announced through the store; the 10 s key reload is only the safety net',
      );
      expect(seen?.ms).not.toBeNull();
      expect(seen?.ms).toBeLessThan(1000);
      const token = seen?.answer.body.access_token;
      expect(typeof token).toBe('string');
      for (const at of s.everywhere) {
        expect({ at: at.name, status: (await s.call(PHONE_PATH, String(token), at)).status }).toEqual({
          at: at.name,
          status: 200,
        });
      }
      // One store: replica 2 lists the rotation as replica 1 does.
      const listed = await s.admin<KeyRow[]>(['keys', 'list'], r2);
      expect(listed.find((k) => k.kid === promoted)?.status).toBe('active');
    });
  });
}
