/**
 * The one convention for "this worked, or this is why not": a union discriminated by `ok`.
 * Callers test `result.ok` and nothing else: never whether a property exists, nor a value's
 * type. `Result` is the general form; a union with domain fields (the plugin's `AuthDecision`:
 * `token` on success, `kind` and `detail` on failure) keeps the same `ok: true | false` tag.
 */
export type Result<T, E = string> = Success<T> | Failure<E>;

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Failure<E> {
  readonly ok: false;
  readonly error: E;
}

export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function failure<E>(error: E): Failure<E> {
  return { ok: false, error };
}
