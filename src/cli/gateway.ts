import { runGatewayProcess } from '#gateway';
import { usageError } from './cli-error.ts';

/** `tokengate gateway`: the edge gateway alone (GATEWAY_CONFIG, UPSTREAM_URL; cluster-aware). */
export async function runGateway(args: readonly string[]): Promise<void> {
  if (args.length > 0) throw usageError(`unexpected argument "${args[0]}"`, 'tokengate gateway');
  await runGatewayProcess();
}
