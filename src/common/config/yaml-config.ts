import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { Result } from '../result.ts';
import { ConfigError } from './config-error.ts';
import type { Env } from './environment.ts';
import { interpolateDocument } from './interpolate.ts';
import { formatPath, lineOf } from './locate.ts';

/** One thing wrong with a configuration file, where it is: `key` names an unknown key of the map at `path`. */
export interface ConfigProblem {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly key?: string;
}

/** A schema's complaints as problems; an unknown key is one problem per key, placed on the key itself. */
export function schemaProblems(error: z.ZodError): ConfigProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: issue.path, message: 'unknown key', key }))
      : [{ path: issue.path, message: issue.message }],
  );
}

/**
 * A YAML configuration file: `${VAR}` substituted from `env`, then handed as plain data to `read`,
 * which validates it and builds the configuration. Throws `ConfigError` with every problem at
 * once, each with its path and line: a variable that is unset and has no default, then every
 * problem `read` found (a broken YAML document is reported alone: nothing in it can be located
 * reliably).
 */
export function readYamlConfig<T>(
  source: string,
  file: string,
  env: Env,
  read: (value: unknown) => Result<T, readonly ConfigProblem[]>,
): T {
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
  const result = read(doc.toJS());
  if (result.ok && problems.length === 0) return result.value;
  // A value emptied by an unset variable is reported as that, not again as the schema sees it.
  const emptied = (path: readonly PropertyKey[]): boolean =>
    missing.some((m) => m.path.length <= path.length && m.path.every((part, i) => part === path[i]));
  for (const { path, message, key } of result.ok ? [] : result.error) {
    if (emptied(path)) continue;
    problems.push(
      `${formatPath(key === undefined ? path : [...path, key])}: ${message} (line ${lineOf(doc, lines, path, key)})`,
    );
  }
  throw new ConfigError(problems, file);
}
