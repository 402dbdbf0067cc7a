import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { createLogger, ignoreHangUps, type Logger, logFormat, stopSignal } from '#common';
import { DEFAULT_CONFIG_FILE, loadGatewayConfig } from '../config/load.ts';
import type { Env } from '#common';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createClusterMetrics } from '../ops/cluster-metrics.ts';
import { startMetrics } from '../ops/metrics-server.ts';
import { answerMetricsRequests } from '../ops/worker-metrics.ts';
import { type RunningGateway, startGateway } from '../start.ts';
import { createClusterReplayCache, serveReplayClaims } from '../verification/cluster-replay.ts';
import { gatewayLogOutput } from './log-output.ts';
import { crashLoopError, runPrimary } from './primary.ts';
import { exitOnUncaughtError } from './uncaught.ts';
import { workerCount } from './workers.ts';

/** Tells a worker where the primary serves the metrics of the whole cluster. */
const METRICS_URL_VARIABLE = 'TOKENGATE_CLUSTER_METRICS_URL';

/**
 * `tokengate gateway`: loads `GATEWAY_CONFIG` (a `ConfigError` is thrown before anything
 * starts), then serves it in this process or, with `workers` > 1, in a cluster whose primary
 * restarts crashed workers and serves the metrics port (the sum over the workers).
 * SIGTERM/SIGINT drain gracefully and the process exits 0.
 */
export async function runGatewayProcess(env: Env = process.env): Promise<void> {
  const file = env.GATEWAY_CONFIG ?? DEFAULT_CONFIG_FILE;
  const config = loadGatewayConfig(file, env);
  const workers = workerCount(config);
  if (cluster.isPrimary && workers > 1) {
    const log = createLogger({ name: 'gateway-primary', format: logFormat(env) });
    const metrics = createClusterMetrics();
    const metricsServer = await startMetrics(config.metrics, metrics, log);
    log.info({ metrics: metricsServer.url, workers }, 'gateway metrics listening (the sum over the workers)');
    const workerEnv = { [METRICS_URL_VARIABLE]: metricsServer.url, ...sharedNonceSecret(config) };
    const stopReplayClaims = serveReplayClaims();
    let code: number;
    try {
      code = await runPrimary({ workers, drainTimeoutMs: config.drainTimeoutMs, log, workerEnv });
    } finally {
      stopReplayClaims();
      metrics.close();
      metricsServer.server.close();
      metricsServer.server.closeAllConnections();
    }
    if (code === 0) return;
    // The CLI's one line on stderr (exit 1), as for every other failure: the JSON log has each exit.
    throw crashLoopError();
  }
  const out = gatewayLogOutput(env);
  const log = createLogger({
    name: cluster.isWorker ? `gateway-worker-${cluster.worker?.id}` : 'gateway',
    destination: out.destination,
  });
  exitOnUncaughtError(log, out.flush);
  try {
    await serve(config, file, env, log, out.flush);
  } catch (error) {
    // A worker that cannot start (its port taken): the channel to the primary would keep it
    // alive, listening on nothing, after the CLI printed the error. Dropping the channel lets it
    // exit 1, so that the primary sees the failure (and gives up after 5).
    cluster.worker?.disconnect();
    throw error;
  }
}

/**
 * Without a configured DPoP nonce secret each process would draw its own, and a worker would
 * refuse the nonces of its siblings on the same port: the workers get one drawn here instead.
 */
function sharedNonceSecret(config: GatewayConfig): Record<string, string> {
  if (config.dpop.nonceSecret !== undefined) return {};
  return { DPOP_NONCE_SECRET: randomBytes(32).toString('base64url') };
}

async function serve(
  config: GatewayConfig,
  file: string,
  env: Env,
  log: Logger,
  flush: () => Promise<boolean>,
): Promise<void> {
  // Listened for before the listener starts: a SIGTERM during start-up (a stop right after a start)
  // would otherwise end the process by the signal, or, as PID 1 in a container, be ignored until
  // the SIGKILL. It is honoured once the gateway is up: a drain of nothing, exit 0.
  const stopping = stopSignal();
  // The reload listener comes with the gateway; a SIGHUP while it starts must not end it.
  ignoreHangUps();
  // A cluster worker answers the primary's metrics requests (with nothing while it starts).
  let gateway: RunningGateway | undefined;
  const clusterMetricsUrl = cluster.isWorker ? env[METRICS_URL_VARIABLE] : undefined;
  if (clusterMetricsUrl !== undefined) answerMetricsRequests(async () => (await gateway?.metricsSnapshot()) ?? [], log);
  // A cluster worker records DPoP proofs with the primary, so that its siblings refuse them too.
  const inCluster =
    clusterMetricsUrl === undefined ? {} : { clusterMetricsUrl, dpopReplay: createClusterReplayCache() };
  gateway = await startGateway(config, { log, configFile: file, env, ...inCluster });
  await stopping;
  log.info('draining');
  await gateway.close();
  log.info('stopped');
  await flush();
  // Drained: exit now rather than wait for idle keep-alive sockets of the key-set and feed
  // clients to time out (the primary counts worker exits).
  process.exit(0);
}
