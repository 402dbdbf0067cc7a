import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The front door and the reference pages: their links to each other and to files must resolve. */
const root = join(import.meta.dirname, '..', '..');
const pages = [
  'README.md',
  'src/auth/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The Markdown outside code blocks and code spans, where links live. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (heading as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function brokenLinks(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = target as string;
    if (/^[a-z]+:/.test(link)) continue;
    const [path, anchor] = link.split('#') as [string, string | undefined];
    const file = path === '' ? join(root, page) : join(root, dirname(page), path);
    if (!existsSync(file)) {
      broken.push(`${link}: no file ${relative(root, file)}`);
    } else if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${link}: no heading #${anchor} in ${relative(root, file)}`);
    }
  }
  return broken;
}

describe('links of the README and docs/', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});
