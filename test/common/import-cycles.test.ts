import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportMap, importCycles, importGraph, specifiersOf } from '../support/import-graph.ts';

const ROOT = join(import.meta.dirname, '..', '..');

async function sourcesOf(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(join(ROOT, dir), { recursive: true })).filter((name) => name.endsWith('.ts'));
  const entries = await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      return [relative('.', path), await readFile(join(ROOT, path), 'utf8')] as const;
    }),
  );
  return new Map(entries);
}

const cyclesOf = (files: Record<string, string>, imports: ImportMap = {}): string[] =>
  importCycles(importGraph(new Map(Object.entries(files)), imports));

describe('import cycles', () => {
  it('finds none in src: imports run one way inside each room as between rooms', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { imports: ImportMap };
    const sources = await sourcesOf('src');
    expect(sources.size).toBeGreaterThan(300);
    expect(cyclesOf(Object.fromEntries(sources), pkg.imports)).toEqual([]);
  });

  it('names the modules of a circle in import order, closing it on the first', () => {
    const files = {
      'src/a/one.ts': "import { two } from './two.ts';",
      'src/a/two.ts': "import type { Three } from '../b/three.ts';",
      'src/b/three.ts': "export { one } from '../a/one.ts';",
    };
    expect(cyclesOf(files)).toEqual(['src/a/one.ts → src/a/two.ts → src/b/three.ts → src/a/one.ts']);
  });

  it('follows #name imports, patterns included, through the package imports map', () => {
    const files = {
      'src/common/index.ts': "export * from './clock.ts';",
      'src/common/clock.ts': "import { x } from '#store';",
      'src/store/index.ts': "import { fake } from '#test/clock.ts';",
      'test/helpers/clock.ts': "import { now } from '#common';",
    };
    const imports = {
      '#common': './src/common/index.ts',
      '#store': './src/store/index.ts',
      '#test/*': './test/helpers/*',
    };
    expect(cyclesOf(files, imports)).toEqual([
      'src/common/clock.ts → src/store/index.ts → test/helpers/clock.ts → src/common/index.ts → src/common/clock.ts',
    ]);
  });

  it('counts dynamic imports and import() types, and a module importing itself', () => {
    const files = {
      'src/settings.ts': "export type Sdk = import('./sdk.ts').Sdk;\nconst { start } = await import('./sdk.ts');",
      'src/sdk.ts': "import type { Settings } from './settings.ts';",
      'src/self.ts': "import './self.ts';",
    };
    expect(cyclesOf(files)).toEqual(['src/sdk.ts → src/settings.ts → src/sdk.ts', 'src/self.ts → src/self.ts']);
  });

  it('reads multi-line import lists and ignores import-like text in comments and strings', () => {
    const text = [
      'import {',
      '  a,',
      '  type B,',
      "} from './a.ts';",
      "import Router, { type X } from 'find-my-way';",
      " * import { c } from './c.ts';",
      "// see import('./d.ts')",
      'const words = `',
      'import',
      "from './e.ts'`;",
    ].join('\n');
    expect(specifiersOf(text)).toEqual(['./a.ts', 'find-my-way']);
  });

  it('leaves a diamond alone: two paths to one module are not a circle', () => {
    const files = {
      'src/top.ts': "import './left.ts';\nimport './right.ts';",
      'src/left.ts': "import './bottom.ts';",
      'src/right.ts': "import './bottom.ts';",
      'src/bottom.ts': '',
    };
    expect(cyclesOf(files)).toEqual([]);
  });
});
