import { loadUpstreamConfig, startUpstream, type Upstream } from '#upstream';
import { usageError } from './cli-error.ts';
import { withConfigErrors } from './config-errors.ts';
import type { CliIo } from './io.ts';
import { printBanner } from './print-output.ts';

/** `tokengate upstream`: the upstream alone, until SIGINT/SIGTERM. */
export async function runUpstream(args: readonly string[], io: CliIo): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate upstream');
  const stopping = io.signals.stopSignal();
  // The upstream reads its configuration once and has nothing to reload (the address data has
  // its own command): a SIGHUP (`systemctl reload`, a closed terminal, a renewal hook meant for
  // the gateway) must not end it.
  io.signals.ignoreHangUps();
  const upstream = await withConfigErrors(() => startUpstream(loadUpstreamConfig(io.env, io.cwd)));
  printBanner(io.stdout, describeUpstream(upstream));
  await stopping;
  await upstream.close();
}

export function describeUpstream(upstream: Upstream): string {
  const token = upstream.adminToken.source === 'env' ? 'from ADMIN_TOKEN' : `in ${upstream.adminToken.path}`;
  return [
    `upstream:    ${upstream.url}`,
    `admin API:   ${upstream.adminUrl}`,
    `metrics:     ${upstream.metricsUrl}`,
    `admin token: ${token}`,
  ].join('\n');
}
