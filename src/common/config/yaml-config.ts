import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { deepFreeze } from './deep-freeze.ts';
import type { Env } from './environment.ts';
import { interpolateDocument } from './interpolate.ts';
import { formatPath, lineOf } from './locate.ts';

/**
 * A YAML configuration file laid over its schema's defaults: `${VAR}` substituted from `env`,
 * validated once, deep-frozen. Throws `ConfigError` with every problem at once, each with its
 * path and line: a variable that is unset and has no default, and every schema violation besides
 * (a broken YAML document is reported alone: nothing in it can be located reliably).
 */
export function readYamlConfig<T extends z.ZodType>(source: string, file: string, env: Env, schema: T): z.output<T> {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => `YAML: ${e.message.split('\n')[0]} (line ${lines.linePos(e.pos[0]).line})`),
      file,
    );
  }
  const problems: string[] = [];
  const missing = interpolateDocument(doc, env);
  for (const m of missing) {
    const at = m.path.length > 0 ? `${formatPath(m.path)}: ` : '';
    const line = lines.linePos(m.offset).line;
    problems.push(`${at}environment variable ${m.variable} is not set and has no default (line ${line})`);
  }
  const result = schema.safeParse(doc.toJS());
  if (result.success && problems.length === 0) return deepFreeze(result.data);
  // A value emptied by an unset variable is reported as that, not again as the schema sees it.
  const emptied = (path: readonly PropertyKey[]): boolean =>
    missing.some((m) => m.path.length <= path.length && m.path.every((part, i) => part === path[i]));
  for (const issue of result.error?.issues ?? []) {
    if (emptied(issue.path)) continue;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    for (const key of keys) {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const message = key === undefined ? issue.message : 'unknown key';
      problems.push(`${formatPath(path)}: ${message} (line ${lineOf(doc, lines, issue.path, key)})`);
    }
  }
  throw new ConfigError(problems, file);
}
