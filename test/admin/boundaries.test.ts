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

const importsOf = (text: string) =>
  [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]);

describe('admin service boundaries', () => {
  it('leaves requests to Node: no module fabricates an IncomingMessage to call a handler in-process', async () => {
    const fabricating = (await sources(SRC)).filter(({ text }) =>
      /\bnew\s+(?:[\w$]+\.)*IncomingMessage\b|Reflect\.construct\(\s*(?:[\w$]+\.)*IncomingMessage\b/.test(text),
    );
    expect(fabricating.map(({ path }) => path)).toEqual([]);
  });

  // node:fs: the common-password list is a data file read once at start, not I/O on a request.
  // @simplewebauthn/server checks passkey answers given to it; it makes no request of its own.
  it('keeps the admin service free of HTTP and of the modules that call it', async () => {
    const allowed =
      /^(?:#common|#issuer|#store|#validation|zod|@simplewebauthn\/server|node:(?:crypto|stream|fs)|\.{1,2}\/.*)$/;
    const offending = (await sources(join(SRC, 'admin'))).flatMap(({ path, text }) =>
      importsOf(text)
        .filter((name) => !allowed.test(name ?? ''))
        .map((name) => `${path}: ${name}`),
    );
    expect(offending).toEqual([]);
  });
});
