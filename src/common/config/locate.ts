import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

/** `routes[3].scopes[0]`: the path of a value as a reader of the YAML would write it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  }
  return out || '(root)';
}

/**
 * The 1-based line of the deepest node along `path` that exists in the document (a missing
 * key points at its parent). With `key`, the line of that key inside the map at `path`.
 */
export function lineOf(doc: Document, lines: LineCounter, path: readonly PropertyKey[], key?: string): number {
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (const part of key === undefined ? path : [...path, key]) {
    const next = child(node, part, key !== undefined && part === key);
    if (!next) break;
    node = next;
    offset = next.range?.[0] ?? offset;
  }
  return lines.linePos(offset).line;
}

function child(node: unknown, part: PropertyKey, wantKey: boolean): Node | undefined {
  if (isSeq(node) && typeof part === 'number') return node.items[part] as Node | undefined;
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === part);
  if (!pair) return undefined;
  return (wantKey ? pair.key : (pair.value ?? pair.key)) as Node | undefined;
}
