import { createLogger } from '#common';
import { loadGatewayConfig } from '../config/load.ts';
import { startGateway } from '../start.ts';

/** `tokengate gateway`: one process (cluster mode comes next). */
export async function runGatewayProcess(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const log = createLogger({ name: 'gateway' });
  const file = env.GATEWAY_CONFIG;
  const config = loadGatewayConfig(file, env);
  const gateway = await startGateway(config, { log, configFile: file ?? 'config/gateway.yaml', env });
  await new Promise<void>((resolve) => process.once('SIGTERM', resolve));
  await gateway.close();
}
