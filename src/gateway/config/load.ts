import { readFileSync } from 'node:fs';
import { ConfigError, type Env, failure, readYamlConfig, schemaProblems } from '#common';
import { environmentBackedKeysOf, environmentProblems, readGatewayEnvironment } from './environment.ts';
import type { GatewayConfig } from './gateway-config.ts';
import { resolve } from './resolve.ts';
import { gatewayFileSchema } from './schema.ts';

/** The default file when neither an argument nor `GATEWAY_CONFIG` names one. */
export const DEFAULT_CONFIG_FILE = 'config/gateway.yaml';

/**
 * Reads, interpolates, validates and resolves a gateway configuration, deep-frozen. Throws
 * `ConfigError` listing every problem (path and line), never a partial configuration.
 */
export function loadGatewayConfig(file?: string, env: Env = process.env): GatewayConfig {
  const path = file ?? env.GATEWAY_CONFIG ?? DEFAULT_CONFIG_FILE;
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`], path);
  }
  return parseGatewayConfig(source, path, env);
}

/**
 * The two steps: the file against its static schema, then `resolve` with the environment. A file
 * that does not validate still has the variables it leaves values to checked, so that one run
 * reports the problems of both.
 */
export function parseGatewayConfig(source: string, path: string, env: Env): GatewayConfig {
  return readYamlConfig(source, path, env, (raw) => {
    const file = gatewayFileSchema.safeParse(raw);
    if (file.success) return resolve(file.data, env);
    const fromEnvironment = environmentProblems(readGatewayEnvironment(env), environmentBackedKeysOf(raw));
    return failure([...schemaProblems(file.error), ...fromEnvironment]);
  });
}
