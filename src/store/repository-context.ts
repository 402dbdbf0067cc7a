import type { Clock } from '#common';
import type { RevocationSignal } from './revocation-signal.ts';
import type { SqlRunner } from './sql-runner.ts';
import type { StoreChangeKind } from './store-change.ts';

/**
 * What each repository's implementation is bound to: the backend's SQL runner (the same SQL runs
 * on PGlite and PostgreSQL), the clock that stamps new records, and the replicas' signal.
 */
export interface RepositoryContext {
  readonly db: SqlRunner;
  readonly clock: Clock;
  readonly signal: RevocationSignal;
  /** Runs a change and, once it committed (and `id` names what changed), tells every replica. */
  changing<T>(work: Promise<T>, kind: StoreChangeKind, id: (result: T) => string | null): Promise<T>;
}
