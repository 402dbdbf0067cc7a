import { type Env, LOG_LEVELS, logFormatProblem } from '#common';
import { runGatewayProcess } from '#gateway';
import { CliError, INVALID_CONFIGURATION, usageError } from './cli-error.ts';
import { withConfigErrors } from './config-errors.ts';

/**
 * `tokengate gateway`: the edge gateway alone (GATEWAY_CONFIG, UPSTREAM_URL; cluster-aware). Every
 * refusal (LOG_LEVEL, LOG_FORMAT, the file) comes before it installs a listener, so a refusal
 * changes nothing global; once its configuration is accepted it owns the process (signals, the
 * cluster, its exit), and so it takes no CliIo.
 */
export async function runGateway(args: readonly string[], env: Env): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate gateway');
  checkLogLevel(env['LOG_LEVEL']);
  const formatProblem = logFormatProblem(env);
  if (formatProblem) throw new CliError(`invalid configuration:\n  ${formatProblem}`, INVALID_CONFIGURATION);
  // An invalid GATEWAY_CONFIG exits 2, as an invalid environment of the upstream does.
  await withConfigErrors(() => runGatewayProcess(env));
}

/** LOG_LEVEL as the upstream checks it: a mistake is named, with exit 2, before anything starts. */
function checkLogLevel(raw: string | undefined): void {
  const level = raw?.trim();
  if (level && !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new CliError(
      `invalid configuration:\n  LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`,
      INVALID_CONFIGURATION,
    );
  }
}
