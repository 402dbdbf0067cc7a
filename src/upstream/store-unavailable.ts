import { type ApiErrorBody, apiError, STORE_RETRY_AFTER_SEC } from '#common';
import { StoreUnavailableError } from '#store';

export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}

/** 503 `1055` with `Retry-After`, in a route's body shape (`extra`: autocomplete's `completions: []`). */
export function storeUnavailableAnswer(extra?: Readonly<Record<string, unknown>>): {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
} {
  const { status, body } = apiError('store_unavailable', extra ? { extra } : {});
  return { status, body, headers: { 'retry-after': String(STORE_RETRY_AFTER_SEC) } };
}
