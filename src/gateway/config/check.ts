import { ConfigError } from '#common';
import { loadGatewayConfig } from './load.ts';
import type { Env } from '#common';

/**
 * What `tokengate check-config FILE` prints (`OK <file>`, or one problem per line) and the status
 * `tokengate gateway` exits with on this file (0 or 2).
 */
export type CheckResult =
  | { readonly ok: true; readonly output: string; readonly exitCode: 0 }
  | { readonly ok: false; readonly output: string; readonly exitCode: 2 };

/** Validates a configuration file without starting anything. */
export function checkConfig(file: string, env: Env = process.env): CheckResult {
  try {
    loadGatewayConfig(file, env);
    return { ok: true, output: `OK ${file}`, exitCode: 0 };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ok: false, output: error.message, exitCode: 2 };
  }
}
