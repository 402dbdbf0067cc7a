import { checkConfig } from '#gateway';
import { upstreamConfigProblems } from '#upstream';
import { INVALID_CONFIGURATION, usageError } from './cli-error.ts';
import type { CliIo } from './io.ts';
import type { CommandOutput } from './print-output.ts';

/**
 * `tokengate check-config FILE`: both sides of a deployment, without starting anything. The
 * gateway's file, read with this environment, and the upstream's environment; prints `OK FILE`
 * when both are valid, else every problem of each on stderr, and exits 2, the status
 * `tokengate gateway` or `tokengate upstream` would exit with.
 */
export async function runCheckConfig(args: readonly string[], io: CliIo, output: CommandOutput): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) throw usageError('expected exactly one FILE', 'tokengate check-config FILE');
  const gateway = checkConfig(file, io.env);
  const upstream = upstreamConfigProblems(io.env);
  if (gateway.ok && upstream.length === 0) {
    output.print(gateway.output);
    return 0;
  }
  const reports = gateway.ok ? [] : [gateway.output];
  if (upstream.length > 0) reports.push(`invalid upstream environment:\n  ${upstream.join('\n  ')}`);
  io.stderr.write(`${reports.join('\n')}\n`);
  return INVALID_CONFIGURATION;
}
