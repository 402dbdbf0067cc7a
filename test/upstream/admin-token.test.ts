import { afterEach, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

const SHORT_WARNING = 'the admin token is shorter than 16 characters and can be guessed';

describe('admin token length at start', () => {
  let upstream: TestUpstream | undefined;
  afterEach(async () => {
    await upstream?.destroy();
    upstream = undefined;
  });

  it('starts with a short ADMIN_TOKEN, answers the admin API with it and warns that it can be guessed', {
    timeout: 60_000,
  }, async () => {
    upstream = await startTestUpstream({ env: { ADMIN_TOKEN: 'short' } });
    expect((await upstream.admin('GET', '/projects')).status).toBe(200);
    const warning = upstream
      .logs()
      .split('\n')
      .filter((line) => line.includes(SHORT_WARNING))
      .map((line) => JSON.parse(line) as { level: number; source: string; msg: string });
    expect(warning).toEqual([expect.objectContaining({ level: 40, source: 'env' })]);
    expect(upstream.logs()).not.toContain('"short"');
  });

  it('does not warn about the generated token', { timeout: 60_000 }, async () => {
    upstream = await startTestUpstream();
    expect(upstream.logs()).toContain('upstream started');
    expect(upstream.logs()).not.toContain(SHORT_WARNING);
  });
});
