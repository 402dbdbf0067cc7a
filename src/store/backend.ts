import type { Logger } from '#common';
import { instrumentedRunner } from './instrumented-runner.ts';
import { openPgliteRunner } from './pglite-runner.ts';
import { openPostgresSignal } from './postgres-signal.ts';
import { clientConfig, openPostgresRunner, type PostgresTarget } from './postgres-runner.ts';
import { inProcessSignal, type RevocationSignal } from './revocation-signal.ts';
import type { SqlRunner } from './sql-runner.ts';
import type { StoreOptions } from './types.ts';

export interface Backend {
  kind: 'embedded' | 'postgres';
  runner: SqlRunner;
  signal: RevocationSignal;
}

/** PostgreSQL when a URL is given, else embedded PGlite under dataDir. */
export function openBackend(options: StoreOptions, log: Logger | undefined): Promise<Backend> {
  const { databaseUrl, schema, timeoutMs } = options;
  const backend = databaseUrl
    ? openPostgres({ databaseUrl, schema, timeoutMs }, log)
    : openEmbedded(options.dataDir, log);
  return backend.then((opened) => ({ ...opened, runner: instrumentedRunner(opened.runner) }));
}

async function openEmbedded(dataDir: string, log: Logger | undefined): Promise<Backend> {
  const runner = await openPgliteRunner(dataDir, log);
  const signal = inProcessSignal((error) => log?.error({ err: error }, 'revocation listener failed'));
  return { kind: 'embedded', runner, signal };
}

async function openPostgres(target: PostgresTarget, log: Logger | undefined): Promise<Backend> {
  const runner = await openPostgresRunner(target, (error) =>
    log?.warn({ err: error }, 'idle PostgreSQL client failed'),
  );
  try {
    const signal = await openPostgresSignal(clientConfig(target), log);
    return { kind: 'postgres', runner, signal };
  } catch (error) {
    await runner.close();
    throw error;
  }
}
