import pg from 'pg';
import type { Logger } from '#common';
import { ListenerSet } from './listeners.ts';
import { REVOCATION_CHANNEL } from './notify-channel.ts';
import type { RevocationSignal } from './revocation-signal.ts';
import { parseChange, type StoreChange } from './store-change.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * A dedicated connection LISTENs (a pooled one would drop the subscription). When it is lost
 * it reconnects with backoff and then wakes every listener once and tells every change listener
 * to `resync`, since notifications sent meanwhile were missed; a spurious wake-up only costs the
 * feed one query, a resync one reload of each cache.
 */
export async function openPostgresSignal(
  clientConfig: pg.ClientConfig,
  log: Logger | undefined,
): Promise<RevocationSignal> {
  const config = { ...clientConfig, application_name: listenerName(clientConfig) };
  const onError = (error: unknown) => log?.error({ err: error }, 'revocation listener failed');
  const listeners = new ListenerSet(onError);
  const changes = new ListenerSet<StoreChange>(onError);
  let client = await connect(config, listeners, changes);
  let closing = false;
  let retryMs = RETRY_MIN_MS;

  const onLost = (error?: Error) => {
    if (closing) return;
    log?.warn({ err: error }, 'revocation LISTEN connection lost; reconnecting');
    setTimeout(reconnect, retryMs).unref();
  };
  const reconnect = async () => {
    if (closing) return;
    try {
      const fresh = await connect(config, listeners, changes);
      // close() may have run while we were connecting: do not leak the new connection.
      if (closing) return void (await fresh.end().catch(() => undefined));
      client = fresh;
      watch(client, onLost);
      retryMs = RETRY_MIN_MS;
      log?.info('revocation LISTEN connection back; reloading what was cached');
      listeners.emit();
      changes.emit({ kind: 'resync', id: null });
    } catch (error) {
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      onLost(error as Error);
    }
  };
  watch(client, onLost);

  return {
    subscribe: (listener) => listeners.add(listener),
    // Our own NOTIFY comes back through LISTEN like every other replica's.
    committed: () => undefined,
    subscribeChanges: (listener) => changes.add(listener),
    // Ours comes back through LISTEN too (a second eviction costs nothing), but this replica's
    // caches must not wait for the round trip.
    changed: (change) => changes.emit(change),
    async close() {
      closing = true;
      listeners.clear();
      changes.clear();
      await client.end().catch(() => undefined);
    },
  };
}

/** Names the LISTEN session in pg_stat_activity (operators, and tests that cut it). */
export function listenerName(config: pg.ClientConfig): string {
  const schema = /search_path=(\S+)/.exec(config.options ?? '')?.[1];
  return ('tokengate-revocation-listener' + (schema ? ':' + schema : '')).slice(0, 63);
}

function watch(client: pg.Client, onLost: (error?: Error) => void): void {
  let lost = false;
  const once = (error?: Error) => {
    if (lost) return;
    lost = true;
    onLost(error);
  };
  client.on('error', once);
  client.on('end', () => once());
}

async function connect(
  config: pg.ClientConfig,
  listeners: ListenerSet,
  changes: ListenerSet<StoreChange>,
): Promise<pg.Client> {
  const client = new pg.Client(config);
  client.on('error', () => undefined); // replaced by watch(); never let an error event go unhandled
  try {
    await client.connect();
    const [row] = (await client.query<{ schema: string | null }>('SELECT current_schema() AS schema')).rows;
    const schema = row?.schema ?? '';
    client.on('notification', (message) => {
      if (message.channel !== REVOCATION_CHANNEL) return;
      if (message.payload === schema) return listeners.emit();
      const change = parseChange(message.payload, schema);
      if (change) changes.emit(change);
    });
    await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}
