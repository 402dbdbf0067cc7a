import { AdminError, type AdminErrorKind } from '#admin';

/** An admin operation's outcome as a page shows it: its result, or its refusal's status and message. */
export type Attempt<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: AdminErrorKind; readonly status: number; readonly message: string };

/** Runs an admin operation (its input parsing included); a failure that is not a refusal propagates (500 page). */
export async function attempt<T>(operation: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await operation() };
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    return { ok: false, kind: error.kind, status: error.status, message: error.message };
  }
}
