import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

let u: TestUpstream;
let feedToken: string;
beforeAll(async () => {
  u = await startTestUpstream({ routes: [] });
  feedToken = u.upstream.feedToken.value;
});
afterAll(() => u.destroy());

const policies = (headers: Record<string, string> = {}, cursor?: string) =>
  fetch(
    `${u.upstream.url}/internal/rate-limits${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
    {
      headers: { authorization: `Bearer ${feedToken}`, ...headers },
    },
  );
const report = (body: unknown, token = feedToken) =>
  fetch(`${u.upstream.url}/internal/usage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe("the gateways' policy feed and usage reports", () => {
  it('refuses both without the feed token', async () => {
    const feed = await fetch(`${u.upstream.url}/internal/rate-limits`, { headers: { authorization: 'Bearer nope' } });
    expect(feed.status).toBe(401);
    expect((await report({ usage: [] }, 'nope')).status).toBe(401);
  });

  it("serves every project's plan and override and every key's project, 304 while unchanged", async () => {
    const project = (await u.admin('POST', '/projects', { name: 'feed', plan: 'free' })).body as { id: string };
    const key = (await u.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string };
    await u.admin('POST', `/projects/${project.id}/limits`, { override: { monthlyQuota: 10 } });
    const first = await policies();
    expect(first.status).toBe(200);
    const body = (await first.json()) as { projects: unknown[]; api_keys: unknown[] };
    expect(body.projects).toContainEqual({ id: project.id, plan: 'free', override: { monthlyQuota: 10 } });
    expect(body.api_keys).toContainEqual({ key: key.key, project_id: project.id });
    const etag = first.headers.get('etag') ?? '';
    expect((await policies({ 'if-none-match': etag })).status).toBe(304);
    await u.admin('DELETE', `/projects/${project.id}/limits`);
    const changed = await policies({ 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { projects: unknown[] }).projects).toContainEqual({
      id: project.id,
      plan: 'free',
      override: null,
    });
  });

  it("leaves a disabled key out, so its refused calls never spend its project's quota, and names it again once enabled", async () => {
    const project = (await u.admin('POST', '/projects', { name: 'toggled', plan: 'free' })).body as { id: string };
    const key = (await u.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string };
    const keys = async () => ((await (await policies()).json()) as { api_keys: unknown[] }).api_keys;
    const named = { key: key.key, project_id: project.id };
    expect(await keys()).toContainEqual(named);
    expect((await u.admin('POST', `/apikeys/${key.key}/disable`)).status).toBe(200);
    expect(await keys()).not.toContainEqual(named);
    expect((await u.admin('POST', `/apikeys/${key.key}/enable`)).status).toBe(200);
    expect(await keys()).toContainEqual(named);
  });

  it('leaves out the keys of a disabled account, whose calls are refused, until it is enabled', async () => {
    const project = (await u.admin('POST', '/projects', { name: 'stopped', plan: 'free' })).body as {
      id: string;
      account_id: string;
    };
    const key = (await u.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string };
    const keys = async () => ((await (await policies()).json()) as { api_keys: unknown[] }).api_keys;
    const named = { key: key.key, project_id: project.id };
    expect(await keys()).toContainEqual(named);
    expect((await u.admin('POST', `/accounts/${project.account_id}/disable`)).status).toBe(200);
    expect(await keys()).not.toContainEqual(named);
    expect((await u.admin('POST', `/accounts/${project.account_id}/enable`)).status).toBe(200);
    expect(await keys()).toContainEqual(named);
  });

  it('answers the changes after a cursor: everything first, then only what changed', async () => {
    const since = async (cursor: string) => {
      const res = await policies({}, cursor);
      expect(res.status).toBe(200);
      return (await res.json()) as { cursor: string; full: boolean; projects: unknown[]; removed_keys: string[] };
    };
    const project = (await u.admin('POST', '/projects', { name: 'cursor', plan: 'free' })).body as { id: string };
    const key = (await u.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string };
    const first = await since('');
    expect(first.full).toBe(true);
    expect(first.projects).toContainEqual({ id: project.id, plan: 'free', override: null });
    const quiet = await since(first.cursor);
    expect(quiet).toMatchObject({ cursor: first.cursor, full: false, projects: [], api_keys: [], removed_keys: [] });
    expect((await u.admin('POST', `/apikeys/${key.key}/disable`)).status).toBe(200);
    const disabled = await since(first.cursor);
    expect(disabled).toMatchObject({ full: false, removed_keys: [key.key] });
    expect(disabled.cursor).not.toBe(first.cursor);
  });

  it('refuses a malformed cursor with 400', async () => {
    for (const cursor of ['x', '12', 'abc.', 'abc.-1', `${'a'.repeat(65)}.1`]) {
      const res = await policies({}, cursor);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('1000');
    }
  });

  it('adds reported calls per project and day, drops those of unknown projects, and refuses a malformed report', async () => {
    const project = (await u.admin('POST', '/projects', { name: 'usage', plan: 'free' })).body as { id: string };
    const entry = { project_id: project.id, day: '2026-03-02', calls: 5, quota: null };
    expect((await report({ usage: [entry, { ...entry, project_id: 'prj_gone' }] })).status).toBe(204);
    expect((await report({ usage: [{ ...entry, calls: 2, quota: 100 }] })).status).toBe(204);
    const usage = await u.admin('GET', `/projects/${project.id}/usage?month=2026-03`);
    expect(usage.body).toMatchObject({ project_id: project.id, month: '2026-03', calls: 7, quota: 100 });
    expect((usage.body as { days: unknown[] }).days).toHaveLength(31);
    expect((usage.body as { days: unknown[] }).days[1]).toEqual({ day: '2026-03-02', calls: 7 });
    for (const bad of ['not json', { usage: [{ ...entry, calls: 0 }] }, { usage: [{ ...entry, day: '2026-3-2' }] }]) {
      const res = await report(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('1000');
    }
  });

  it('answers 404 for the limits and usage of an unknown project and 400 for a malformed month or override', async () => {
    expect((await u.admin('GET', '/projects/prj_nope/limits')).status).toBe(404);
    expect((await u.admin('GET', '/projects/prj_nope/usage')).status).toBe(404);
    const project = (await u.admin('POST', '/projects', { name: 'bad', plan: 'free' })).body as { id: string };
    const month = await u.admin('GET', `/projects/${project.id}/usage?month=2026-13`);
    expect(month.status).toBe(400);
    const override = await u.admin('POST', `/projects/${project.id}/limits`, {
      override: { groups: { api: { client: { requests: 0, windowSec: 1 } } } },
    });
    expect(override.status).toBe(400);
    expect(JSON.stringify(override.body)).toContain('requests: a whole number from 1');
  });
});
