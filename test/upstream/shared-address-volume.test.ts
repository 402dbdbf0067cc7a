import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importGnaf } from '#validation';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/gnaf');

/** Every file under `dir` with its size and modification time: what a reader must not change. */
async function snapshot(dir: string): Promise<string[]> {
  const names = (await readdir(dir, { recursive: true })).sort();
  return Promise.all(
    names.map(async (name) => {
      const s = await stat(join(dir, name));
      return `${name} ${s.size} ${s.mtimeMs}`;
    }),
  );
}

type Replica = { t: TestUpstream; key: string; secret: string };

async function replica(shared: string): Promise<Replica> {
  const t = await startTestUpstream({ env: { ADDRESS_DATA_DIR: shared } });
  const project = (await t.admin('POST', '/projects', { name: 'r', plan: 'business' })).body as { id: string };
  const key = (await t.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string; secret: string };
  return { t, key: key.key, secret: key.secret };
}

async function complete(r: Replica, q: string): Promise<{ full_address: string; id: string }[]> {
  const query = new URLSearchParams({ q, key: r.key, secret: r.secret });
  const res = await fetch(`${r.t.upstream.url}/api/au/address/autocomplete?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { completions: { full_address: string; id: string }[] }).completions;
}

describe('upstream replicas sharing a read-only address volume (ADDRESS_DATA_DIR)', () => {
  let shared: string;
  let replicas: Replica[];
  beforeAll(async () => {
    shared = await mkdtemp(join(tmpdir(), 'tokengate-shared-address-'));
    await importGnaf(FIXTURE, shared, { now: () => new Date('2026-12-01T00:00:00Z') });
    replicas = [];
    const before = await snapshot(shared);
    replicas.push(await replica(shared), await replica(shared));
    expect(await snapshot(shared)).toEqual(before);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.t.destroy()));
    await rm(shared, { recursive: true, force: true });
  });

  it('both open the one persisted index, write nothing, and give the same address the same id', async () => {
    const before = await snapshot(shared);
    const answers = await Promise.all(replicas.map((r) => complete(r, '2/21 kent rd dapto')));
    expect(answers[0]).toMatchObject([{ full_address: 'Unit 2, 21 Kent Road, DAPTO NSW 2530' }]);
    expect(answers[1]).toEqual(answers[0]);
    for (const r of replicas) {
      expect(r.t.logs()).toMatch(/"from":"index".*"address data set loaded"|"address data set loaded".*"from":"index"/);
      expect(r.t.logs()).not.toContain('"from":"generated"');
      expect(await readdir(r.t.dataDir)).not.toContain('address');
    }
    expect(await snapshot(shared)).toEqual(before);
  });

  it('serve a new import on the volume once each is asked to reload', async () => {
    const old = (await complete(replicas[0]!, '2/21 kent rd dapto'))[0]!.id;
    await importGnaf(FIXTURE, shared, { now: () => new Date('2026-12-02T00:00:00Z') });
    for (const r of replicas) expect((await r.t.admin('POST', '/address/reload')).status).toBe(200);
    const answers = await Promise.all(replicas.map((r) => complete(r, '2/21 kent rd dapto')));
    expect(answers[0]![0]!.id).not.toBe(old);
    expect(answers[1]).toEqual(answers[0]);
  });
});
