import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '#test/stack.ts';
import { copyMigratedStore } from '#test/store-template.ts';

/** The README's curl walk-through, run exactly as written against a real local stack. */
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

async function walkthroughScript(): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README has no walkthrough block');
  return block[1];
}

/** The error bodies the walk-through's comments show, in order. */
function documentedErrors(script: string): Array<Record<string, unknown>> {
  return script
    .split('\n')
    .filter((line) => line.startsWith('# {') && line.includes('"success":false'))
    .map((line) => JSON.parse(line.slice(2)) as Record<string, unknown>);
}

function withoutExpiryTime(body: Record<string, unknown>): Record<string, unknown> {
  return body.error_code === '1030' ? { ...body, message: 'Token expired at …' } : body;
}

describe('the README walk-through', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-readme-'));
    // A migrated store and the address sample, copied: a first start from nothing is
    // test/e2e/embedded.test.ts's; this one is about the README's commands and answers.
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    await copyMigratedStore(dataDir);
    stack = await startStack({ dataDir });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('works as written: a verified call, then each documented error', { timeout: 90_000 }, async () => {
    const script = await walkthroughScript();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      env: { ...process.env, ...stack.env, GW: stack.gatewayUrl },
      timeout: 80_000,
    });
    const answers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{') || line.startsWith('['))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      answers.map(
        (a) =>
          a.error_code ??
          (a.success === true ? 'ok' : a.revoked === true ? 'revoked' : a.deleted === true ? 'deleted' : '?'),
      ),
    ).toEqual(['ok', 'ok', '1024', '1026', '1030', 'revoked', '1024', 'deleted', '1025']);
    // Each error body as the README shows it, key order included (the expiry time aside).
    const errors = answers.filter((a) => a.success === false).map(withoutExpiryTime);
    const shown = documentedErrors(script).map(withoutExpiryTime);
    expect(errors).toEqual(shown);
    expect(errors.map((e) => Object.keys(e))).toEqual(shown.map((e) => Object.keys(e)));
    const suggestions = (answers[1]?.completions ?? []) as Array<{ full_address: string }>;
    expect(suggestions[0]?.full_address).toBe('2 George Street, SYDNEY NSW 2000');
    expect(answers[6]?.message).toBe('OAuth key has been revoked');
    expect(answers[4]?.message).toMatch(/^Token expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
