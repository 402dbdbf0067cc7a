import type { AuthFailure, AuthFailureKind } from './types.ts';

/** Builds a failure; `detail` is for the log only and never reaches the client. */
export function fail(kind: AuthFailureKind, detail: string): AuthFailure {
  return { ok: false, kind, detail };
}
