import { dirname, join, normalize } from 'node:path';

/**
 * The import graph of a set of TypeScript sources, read with a small parser (TypeScript 7 has
 * no in-process `preProcessFile`). It counts every way one module names another: `import` and
 * `export … from` (type-only ones too: a type-only circle still means neither module can be
 * read without the other, which is what the one-way layering forbids), side-effect imports,
 * `import('…')` calls and `import('…').T` types. Static forms are matched only at the start of a
 * line, so the text of comments and template strings does not count; `import('…')` is skipped
 * on comment lines.
 */
export type Sources = ReadonlyMap<string, string>;
/** package.json "imports": `#name` → a path from the package root; a key ending in `/*` is a pattern. */
export type ImportMap = Readonly<Record<string, string>>;

const STATIC =
  /^[ \t]*(?:import|export)[ \t]+(?:type[ \t]+)?(?:[\w$]+[ \t]*,[ \t]*)?(?:\{[^}]*\}|\*[ \t]+as[ \t]+[\w$]+|\*|[\w$]+)[ \t\r\n]+from[ \t]+(['"])([^'"]+)\1|^[ \t]*import[ \t]+(['"])([^'"]+)\3/gm;
const CALL = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;
const COMMENT_LINE = /^\s*(?:\*|\/\/|\/\*)/;

/** The specifiers one source names, in order of appearance. */
export function specifiersOf(text: string): string[] {
  const found: Array<[number, string]> = [];
  for (const m of text.matchAll(STATIC)) found.push([m.index, (m[2] ?? m[4])!]);
  for (const m of text.matchAll(CALL)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!COMMENT_LINE.test(text.slice(lineStart, m.index))) found.push([m.index, m[2]!]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, specifier]) => specifier);
}

/** The path (from the package root) a specifier names, or undefined for packages and built-ins. */
export function resolveSpecifier(from: string, specifier: string, imports: ImportMap): string | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../')) return normalize(join(dirname(from), specifier));
  if (!specifier.startsWith('#')) return undefined;
  const exact = imports[specifier];
  if (exact !== undefined) return normalize(exact);
  for (const [key, target] of Object.entries(imports)) {
    if (key.endsWith('/*') && specifier.startsWith(key.slice(0, -1)))
      return normalize(target.replace('*', specifier.slice(key.length - 1)));
  }
  return undefined;
}

/** Each source's imports among the sources themselves. */
export function importGraph(sources: Sources, imports: ImportMap): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [path, text] of sources) {
    const targets = specifiersOf(text)
      .map((specifier) => resolveSpecifier(path, specifier, imports))
      .filter((target): target is string => target !== undefined && sources.has(target));
    graph.set(path, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One circle per group of modules that reach each other (Tarjan's strongly connected
 * components), each written as the path that closes it: `a.ts → b.ts → a.ts`.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const members = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.add(member);
    } while (member !== node);
    if (members.size > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(circleThrough(node, members, graph));
  };
  for (const node of [...graph.keys()].sort()) if (!order.has(node)) visit(node);
  return cycles.sort();
}

/** A shortest path from `start` back to itself inside its component (breadth first). */
function circleThrough(start: string, members: ReadonlySet<string>, graph: ReadonlyMap<string, readonly string[]>) {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start].join(' → ');
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return start;
}
