import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

async function sources(dir: string): Promise<Array<{ path: string; text: string }>> {
  const names = await readdir(dir, { recursive: true });
  const files = names.filter((name) => name.endsWith('.ts')).map((name) => join(dir, name));
  return Promise.all(files.map(async (file) => ({ path: relative(ROOT, file), text: await readFile(file, 'utf8') })));
}

const importsOf = (text: string): string[] =>
  [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');

describe('module boundaries', () => {
  it('tells success from failure by `ok` alone: no `in` test on a result anywhere in src', async () => {
    const offending = (await sources(SRC)).filter(({ text }) => /'(?:ok|error|value)' in \w/.test(text));
    expect(offending.map(({ path }) => path)).toEqual([]);
  });

  it('runs the G-NAF import from the CLI through #admin, never #validation', async () => {
    const offending = (await sources(join(SRC, 'cli'))).filter(({ text }) => importsOf(text).includes('#validation'));
    expect(offending.map(({ path }) => path)).toEqual([]);
  });

  it('keeps each validation endpoint out of the others: shared parsers sit beside them', async () => {
    const endpoints = ['email', 'phone', 'address'];
    const offending = [];
    for (const endpoint of endpoints) {
      for (const { path, text } of await sources(join(SRC, 'validation', endpoint))) {
        const others = endpoints.filter((other) => other !== endpoint);
        const bad = importsOf(text).filter((name) => others.some((other) => name.includes(`/${other}/`)));
        offending.push(...bad.map((name) => `${path}: ${name}`));
      }
    }
    expect(offending).toEqual([]);
  });

  it('exports from #gateway only functions that src or scripts outside the gateway use, none only for tests', async () => {
    const index = await readFile(join(SRC, 'gateway', 'index.ts'), 'utf8');
    const names = [...index.matchAll(/export \{([^}]*)\}/g)].flatMap((m) =>
      (m[1] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type ')),
    );
    const outside = [...(await sources(SRC)), ...(await sources(join(ROOT, 'scripts')))].filter(
      ({ path }) => !path.startsWith('src/gateway/'),
    );
    const users = outside.filter(({ text }) => importsOf(text).includes('#gateway')).map(({ text }) => text);
    const unused = names.filter((name) => !users.some((text) => new RegExp(`\\b${name}\\b`).test(text)));
    expect(unused).toEqual([]);
  });
});
