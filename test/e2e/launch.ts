import { join } from 'node:path';
import { type Stack, startStack } from '#test/stack.ts';
import { strictClockConfig } from './support.ts';

/** The local-process stack (`tokengate upstream` + `tokengate gateway`) in a temporary directory. */
export async function launchProcesses(dir: string, databaseUrl?: string): Promise<Stack> {
  return startStack({
    dataDir: join(dir, 'data'),
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { GATEWAY_CONFIG: await strictClockConfig(dir) },
    clockToleranceSec: 0,
  });
}
