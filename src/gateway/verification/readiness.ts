import type { KeySetStatus, RevocationSetStatus } from '#auth';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: {
    readonly keys: {
      readonly ok: boolean;
      readonly loaded: boolean;
      readonly stale: boolean;
      readonly ageSec: number | null;
      readonly lastError: string | null;
    };
    readonly revocations: {
      readonly ok: boolean;
      readonly synced: boolean;
      readonly stale: boolean;
      readonly lagSec: number | null;
    };
  };
}

/** Ready means: the key set is loaded (and not past maxStale) and revocations are synced and fresh. */
export function readinessOf(
  keysUsable: boolean,
  keys: KeySetStatus,
  revocations: RevocationSetStatus,
): ReadinessReport {
  const keysOk = keysUsable && keys.loaded;
  const revocationsOk = revocations.synced && !revocations.stale;
  return {
    ready: keysOk && revocationsOk,
    checks: {
      keys: { ok: keysOk, loaded: keys.loaded, stale: keys.stale, ageSec: keys.ageSec, lastError: keys.lastError },
      revocations: {
        ok: revocationsOk,
        synced: revocations.synced,
        stale: revocations.stale,
        lagSec: revocations.lagSec,
      },
    },
  };
}
