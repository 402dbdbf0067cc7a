/** The gateway under test, started from a YAML file exactly as in production (access log on). */
import { createLogger } from '#common';
import { loadGatewayConfig, startGateway } from '#gateway';
import { bufferedStdout } from '../../src/gateway/process/log-destination.ts';
import { announce, answerUsageProbes } from './probe.ts';

const file = process.argv[2] ?? '';
// The access log is part of the cost measured, buffered as `tokengate gateway` does; it goes to
// /dev/null (this process's stdout is not kept).
const out = bufferedStdout();
const log = createLogger({
  name: 'gateway',
  level: process.env.BENCH_LOG_LEVEL ?? 'info',
  destination: out.destination,
});
const gateway = await startGateway(loadGatewayConfig(file, process.env), { log, watch: false });
await gateway.ready();
announce({ url: gateway.url });
answerUsageProbes();
// A clean exit on SIGINT lets `--cpu-prof` write its profile when profiling this server.
process.once('SIGINT', () => void gateway.close().then(() => process.exit(0)));
