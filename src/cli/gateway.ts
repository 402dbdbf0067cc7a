import { LOG_LEVELS } from '#common';
import { runGatewayProcess } from '#gateway';
import { CliError, usageError } from './cli-error.ts';

/** `tokengate gateway`: the edge gateway alone (GATEWAY_CONFIG, UPSTREAM_URL; cluster-aware). */
export async function runGateway(args: readonly string[]): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate gateway');
  checkLogLevel(process.env['LOG_LEVEL']);
  await runGatewayProcess();
}

/** LOG_LEVEL as the upstream checks it: a mistake is named, with exit 2, before anything starts. */
function checkLogLevel(raw: string | undefined): void {
  const level = raw?.trim();
  if (level && !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new CliError(
      `invalid configuration:\n  LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`,
      2,
    );
  }
}
