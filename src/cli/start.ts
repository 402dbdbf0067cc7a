import { createLogger } from '#common';
import { DEFAULT_CONFIG_FILE, loadGatewayConfig, startGateway } from '#gateway';
import { loadUpstreamConfig, startUpstream, type Upstream } from '#upstream';
import { usageError } from './cli-error.ts';
import { withConfigErrors } from './config-errors.ts';
import type { CliIo } from './io.ts';
import { printBanner } from './print-output.ts';
import { waitUntilReady } from './ready.ts';
import { unlessStopped } from './signals.ts';
import { describeUpstream } from './upstream.ts';

const UPSTREAM_READY_MS = 60_000;
/** After this the URLs are printed anyway, with a pointer to the gateway's /readyz. */
const GATEWAY_READY_NOTICE_MS = 30_000;

/**
 * `tokengate start` (`npm start`): the whole local stack in one process: the upstream with its
 * store, then the gateway once the upstream answers /readyz. SIGINT/SIGTERM stop the gateway
 * first (no request reaches a closed upstream), then the upstream; exit code 0.
 */
export async function runStart(args: readonly string[], io: CliIo): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate start');
  const stopping = io.signals.stopSignal();
  // Its gateway reloads on SIGHUP once it is up; a SIGHUP while the stack starts must not end it.
  io.signals.ignoreHangUps();
  const config = await withConfigErrors(async () => loadUpstreamConfig(io.env, io.cwd));
  // A gateway.yaml with a mistake is refused before the upstream opens (and locks) DATA_DIR.
  await withConfigErrors(async () => loadGatewayConfig(gatewayConfigFile(io), gatewayEnv(io, config.dataDir)));
  const upstream = await withConfigErrors(() => startUpstream(config));
  try {
    if ((await unlessStopped(waitUntilReady(upstream.url, UPSTREAM_READY_MS), stopping)).stopped) return;
    await runGatewayUntilStopped(io, upstream, config, stopping);
  } finally {
    await upstream.close();
  }
}

async function runGatewayUntilStopped(
  io: CliIo,
  upstream: Upstream,
  { dataDir, logLevel }: { dataDir: string; logLevel: string },
  stopping: Promise<NodeJS.Signals>,
) {
  const env = gatewayEnv(io, dataDir, upstream);
  const configFile = gatewayConfigFile(io);
  const gatewayConfig = await withConfigErrors(async () => loadGatewayConfig(configFile, env));
  // configFile + env: SIGHUP and edits of the file reload the route map, as with `tokengate gateway`.
  const gateway = await startGateway(gatewayConfig, {
    log: createLogger({ level: logLevel, name: 'gateway' }),
    configFile,
    env,
  });
  try {
    const notice = new Promise<'slow'>((resolve) => setTimeout(resolve, GATEWAY_READY_NOTICE_MS, 'slow').unref());
    const ready = await unlessStopped(Promise.race([gateway.ready().then(() => 'ready' as const), notice]), stopping);
    if (ready.stopped) return;
    const note = ready.value === 'slow' ? ' (not ready yet: see /readyz)' : '';
    printBanner(io.stdout, `gateway:     ${gateway.url}${note}\n${describeUpstream(upstream)}`);
    await stopping;
  } finally {
    await gateway.close();
  }
}

function gatewayConfigFile(io: CliIo): string {
  return io.env['GATEWAY_CONFIG'] ?? DEFAULT_CONFIG_FILE;
}

/**
 * The gateway of the local stack talks to this upstream and reads its feed token. Before the
 * upstream runs (the early check of the file), stand-ins of the right shape take their place.
 */
function gatewayEnv(io: CliIo, dataDir: string, upstream?: Upstream): NodeJS.ProcessEnv {
  return {
    ...io.env,
    DATA_DIR: dataDir,
    UPSTREAM_URL: upstream?.url ?? 'http://127.0.0.1:1',
    REVOCATION_FEED_TOKEN: upstream?.feedToken.value ?? 'checked-before-the-upstream-starts',
  };
}
