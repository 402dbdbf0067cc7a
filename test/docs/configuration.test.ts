import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, renderKeyReference, withKeyReference } from '../../scripts/gen-config-doc.ts';

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
});
