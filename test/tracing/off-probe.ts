/**
 * Run by off.test.ts as its own process: records every module the gateway resolves, starts it
 * from the config file named, sends requests through it, and prints the OpenTelemetry SDK modules
 * and span code that were loaded (as JSON on its last line).
 */
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    // @opentelemetry/api is not counted: prom-client loads it whatever we do (for exemplars).
    if (/@opentelemetry\/(?!api\/)|tracing-sdk\.ts$|request-trace\.ts$/.test(result.url))
      loaded.push(`${result.url} <- ${context.parentURL}`);
    return result;
  },
});

const { createLogger } = await import('#common');
const { loadGatewayConfig, startGateway } = await import('#gateway');
const file = process.argv[2] ?? '';
const env = { ...process.env };
const gateway = await startGateway(loadGatewayConfig(file, env), {
  log: createLogger({ level: 'silent' }),
  env,
  watch: false,
});
await gateway.ready();
for (let i = 0; i < 20; i++) {
  const res = await fetch(`${gateway.url}/api/x`, { headers: { authorization: 'Bearer a.b.c' } });
  await res.arrayBuffer();
}
await gateway.close();
process.stdout.write(`${JSON.stringify(loaded)}\n`);
