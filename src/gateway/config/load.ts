import { readFileSync } from 'node:fs';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './errors.ts';
import { interpolateDocument } from './interpolate.ts';
import { formatPath, lineOf } from './locate.ts';
import { type Env, type GatewayConfig, gatewaySchema } from './schema.ts';

/** The default file when neither an argument nor `GATEWAY_CONFIG` names one. */
export const DEFAULT_CONFIG_FILE = 'config/gateway.yaml';

/**
 * Reads, interpolates, validates and freezes a gateway configuration. Throws `ConfigError`
 * listing every problem (path and line), never a partial configuration.
 */
export function loadGatewayConfig(file?: string, env: Env = process.env): GatewayConfig {
  const path = file ?? env.GATEWAY_CONFIG ?? DEFAULT_CONFIG_FILE;
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  return parseGatewayConfig(source, path, env);
}

export function parseGatewayConfig(source: string, path: string, env: Env): GatewayConfig {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      path,
      doc.errors.map((e) => `YAML: ${e.message.split('\n')[0]} (line ${lines.linePos(e.pos[0]).line})`),
    );
  }
  const missing = interpolateDocument(doc, env);
  if (missing.length > 0) {
    throw new ConfigError(
      path,
      missing.map(
        (m) =>
          `environment variable ${m.variable} is not set and has no default (line ${lines.linePos(m.offset).line})`,
      ),
    );
  }
  const result = gatewaySchema(env).safeParse(doc.toJS());
  if (!result.success)
    throw new ConfigError(
      path,
      result.error.issues.flatMap((i) => describe(i, doc, lines)),
    );
  return deepFreeze(result.data);
}

function describe(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter): string[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map(
      (key) => `${formatPath([...issue.path, key])}: unknown key (line ${lineOf(doc, lines, issue.path, key)})`,
    );
  }
  return [`${formatPath(issue.path)}: ${issue.message} (line ${lineOf(doc, lines, issue.path)})`];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
