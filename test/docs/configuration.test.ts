import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DOC,
  generatedPage,
  renderEnvironmentReference,
  renderKeyReference,
  withKeyReference,
} from '../../scripts/gen-config-doc.ts';

describe('docs/configuration.md', () => {
  it('has a description for every key of the gateway configuration schema', () => {
    expect(renderKeyReference().undocumented).toEqual([]);
  });

  it('holds the key reference the schema generates now (else: npm run docs:config)', () => {
    const page = readFileSync(CONFIG_DOC, 'utf8');
    expect(page).toBe(withKeyReference(page, renderKeyReference().text));
  });

  it('keeps the generated part within 120 columns', () => {
    const long = renderKeyReference()
      .text.split('\n')
      .filter((line) => line.length > 120);
    expect(long).toEqual([]);
  });

  it("documents every variable of the upstream's environment schema: its default, readers and meaning", () => {
    expect(renderEnvironmentReference().undocumented).toEqual([]);
  });

  it('holds the environment table the upstream schema generates now (else: npm run docs:config)', () => {
    const page = readFileSync(CONFIG_DOC, 'utf8');
    expect(page).toBe(generatedPage(page));
    expect(page).toContain('| `DATABASE_TIMEOUT_MS` | `5000` | upstream |');
  });
});
