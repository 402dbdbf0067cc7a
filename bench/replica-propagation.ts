/**
 * How long each kind of change made on replica 1 takes to hold on replica 2 (two upstream
 * replicas on one PostgreSQL, the scale-out stack of test/scaleout). Prints median and max per
 * kind, in ms from the admin API's answer to replica 2's first answer showing the change.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/replica-propagation.ts [rounds]
 */
import { type Answer, arrivals, type Endpoint, jwtHeader, startScaleOut } from '../test/scaleout/fixture.ts';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('set TEST_DATABASE_URL');
const rounds = Number(process.argv[2] ?? 5);
const s = await startScaleOut(url);
const [r1, r2] = s.replicas;
const times = new Map<string, number[]>();
const until = async (kind: string, ask: (at: Endpoint) => Promise<Answer>, done: (a: Answer) => boolean) => {
  const [seen] = await arrivals([r2], ask, done, { since: performance.now(), windowMs: 15_000, intervalMs: 5 });
  times.set(kind, [...(times.get(kind) ?? []), seen?.ms ?? Number.POSITIVE_INFINITY]);
};
try {
  for (let i = 0; i < rounds; i++) {
    const { project, client } = await s.newClient();
    const token = (at: Endpoint) => s.tokenRequest(client, at);
    await s.token(client, r2);
    await s.adminApi('POST', `/clients/${client.client_id}/disable`, undefined, r1);
    await until('client disable', token, (a) => a.status === 401);
    await s.adminApi('POST', `/clients/${client.client_id}/enable`, undefined, r1);
    await until('client enable', token, (a) => a.status === 200);
    const accountId = String((await s.adminApi('GET', `/projects/${project.id}`, undefined, r1)).body.account_id);
    await s.adminApi('POST', `/accounts/${accountId}/plan`, { plan: 'free' }, r1);
    await until('account plan change', token, (a) => a.status === 400);
    await s.adminApi('POST', `/accounts/${accountId}/plan`, { plan: 'business' }, r1);
    await until('account plan change', token, (a) => a.status === 200);
    const kid = String((await s.adminApi('POST', '/keys/rotate', { now: true }, r1)).body.kid);
    await until('key rotation (--now)', token, (a) => {
      const t = a.body.access_token;
      return typeof t === 'string' && jwtHeader(t).kid === kid;
    });
    await s.adminApi('DELETE', `/projects/${project.id}`, undefined, r1);
    await until('project deletion', token, (a) => a.status !== 200);
  }
  for (const [kind, list] of times) {
    const sorted = [...list].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`${kind.padEnd(22)} n=${sorted.length} median ${median} ms, max ${sorted.at(-1)} ms`);
  }
} finally {
  await s.stop();
}
