import { readFileSync } from 'node:fs';
import { ConfigError, type Env, readYamlConfig } from '#common';
import { type GatewayConfig, gatewaySchema } from './schema.ts';

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
    throw new ConfigError([`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`], path);
  }
  return parseGatewayConfig(source, path, env);
}

export function parseGatewayConfig(source: string, path: string, env: Env): GatewayConfig {
  return readYamlConfig(source, path, env, gatewaySchema(env));
}
