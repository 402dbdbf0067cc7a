import { createLogger } from '#common';
import { loadGatewayConfig, startGateway } from '#gateway';
import { loadUpstreamConfig, startUpstream } from '#upstream';
import { usageError } from './cli-error.ts';
import { withConfigErrors } from './config-errors.ts';
import { waitUntilReady } from './ready.ts';
import { shutdownSignal } from './signals.ts';
import { describeUpstream } from './upstream.ts';

const UPSTREAM_READY_MS = 60_000;

/**
 * `tokengate start` (`npm start`): the whole local stack in one process: the upstream with its
 * store, then the gateway once the upstream answers /readyz. SIGINT/SIGTERM stop the gateway
 * first (no request reaches a closed upstream), then the upstream; exit code 0.
 */
export async function runStart(args: readonly string[]): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate start');
  const stopping = shutdownSignal();
  const config = await withConfigErrors(async () => loadUpstreamConfig());
  const upstream = await startUpstream(config);
  try {
    await waitUntilReady(upstream.url, UPSTREAM_READY_MS);
    // The gateway of the local stack talks to this upstream and reads its feed token.
    const env = { ...process.env, DATA_DIR: config.dataDir, UPSTREAM_URL: upstream.url, REVOCATION_FEED_TOKEN: upstream.feedToken.value };
    const gatewayConfig = await withConfigErrors(async () => loadGatewayConfig(process.env['GATEWAY_CONFIG'], env));
    const gateway = await startGateway(gatewayConfig, { log: createLogger({ level: config.logLevel, name: 'gateway' }) });
    try {
      await gateway.ready();
      process.stdout.write(`gateway:     ${gateway.url}\n${describeUpstream(upstream)}\n`);
      await stopping;
    } finally {
      await gateway.close();
    }
  } finally {
    await upstream.close();
  }
}
