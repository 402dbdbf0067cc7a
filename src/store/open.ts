import { type Logger, systemClock } from '#common';
import { openBackend } from './backend.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { createStore } from './store.ts';
import type { Store, StoreOptions } from './types.ts';

/**
 * Opens the store and brings its schema up to date. Embedded (PGlite under
 * `<dataDir>/db`) unless `databaseUrl` is set. A first embedded start creates the database
 * (seconds); later starts reopen it (a fraction of a second): see the logged `ms`.
 */
export async function openStore(options: StoreOptions, log?: Logger): Promise<Store> {
  const clock = options.clock ?? systemClock;
  const started = performance.now();
  const backend = await openBackend(options, log);
  try {
    const applied = await migrate(backend.runner, await loadMigrations(), clock.now());
    const ms = Math.round(performance.now() - started);
    log?.info({ store: backend.kind, appliedMigrations: applied, ms }, 'store opened');
  } catch (error) {
    await backend.signal.close();
    await backend.runner.close();
    throw error;
  }
  return createStore(backend, clock, log);
}
