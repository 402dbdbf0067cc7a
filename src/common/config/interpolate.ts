import { type Document, isPair, isScalar, isSeq, visit } from 'yaml';
import type { Env } from './environment.ts';

/**
 * `${NAME}` and `${NAME:-default}` in scalar values are replaced from the environment, trimmed,
 * before validation (the default applies when NAME is unset or empty, as in sh); defaults may nest
 * (`${UPSTREAM_URL:-http://127.0.0.1:${UPSTREAM_PORT:-3000}}`).
 * Values from the environment are inserted verbatim (never expanded again). A missing variable
 * without a default is an error naming it, its path and its line, never an empty string (the value
 * is left empty so the rest of the file is still checked, and the schema's complaint about that
 * empty value is dropped in favour of this one: yaml-config.ts). An unquoted
 * scalar that becomes a number or boolean is typed as one (`port: ${GATEWAY_PORT:-8080}`).
 */
export interface InterpolationError {
  readonly variable: string;
  /** Where the value sits in the configuration (`upstream.url`, `routes[2].path`). */
  readonly path: readonly (string | number)[];
  readonly offset: number;
}

export function interpolateDocument(doc: Document, env: Env): InterpolationError[] {
  const errors: InterpolationError[] = [];
  visit(doc, {
    Scalar(_key, node, ancestors) {
      if (typeof node.value !== 'string' || !node.value.includes('${')) return;
      const offset = node.range?.[0] ?? 0;
      const missing: string[] = [];
      const replaced = expand(node.value, 0, env, missing, false).text;
      for (const variable of missing) errors.push({ variable, path: pathOf([...ancestors, node]), offset });
      node.value = isScalar(node) && node.type === 'PLAIN' ? typed(replaced) : replaced;
    },
  });
  return errors;
}

/** The keys and indexes leading from the document to the last node of `chain`. */
function pathOf(chain: readonly unknown[]): (string | number)[] {
  const path: (string | number)[] = [];
  for (let i = 0; i + 1 < chain.length; i++) {
    const parent = chain[i];
    const child = chain[i + 1];
    if (isSeq(parent)) path.push(parent.items.indexOf(child as never));
    else if (isPair(parent) && parent.value === child) path.push(isScalar(parent.key) ? String(parent.key.value) : '?');
  }
  return path;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Expands from `start`; inside a default (`nested`) it stops at the closing brace. */
function expand(
  source: string,
  start: number,
  env: Env,
  missing: string[],
  nested: boolean,
): { text: string; end: number } {
  let text = '';
  let i = start;
  while (i < source.length) {
    if (nested && source[i] === '}') return { text, end: i };
    const name = source.startsWith('${', i) ? NAME.exec(source.slice(i + 2))?.[0] : undefined;
    if (name === undefined) {
      text += source[i++];
      continue;
    }
    i += 2 + name.length;
    let fallback: string | undefined;
    if (source.startsWith(':-', i)) {
      const inner = expand(source, i + 2, env, missing, true);
      fallback = inner.text;
      i = inner.end;
    }
    if (source[i] !== '}') return { text: text + source.slice(i - 2 - name.length), end: source.length };
    i++;
    // As in sh and docker compose, `:-` takes the default when the variable is unset or empty:
    // GATEWAY_HOST= must not turn `${GATEWAY_HOST:-127.0.0.1}` into every interface. Values are
    // trimmed, as the upstream reads its environment: UPSTREAM_PORT=" 3001" means one port to both.
    const set = env[name]?.trim();
    const value = fallback !== undefined && (set === undefined || set === '') ? fallback : set;
    if (value === undefined) missing.push(name);
    text += value ?? '';
  }
  return { text, end: i };
}

function typed(value: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}
