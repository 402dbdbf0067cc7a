import { type ApiErrorKind, apiError, oauthError } from '#common';

/**
 * The body of the gateway's own error replies on a route (a route's `errorShape`): `api` is the
 * documented `{message, error_code, success: false}` plus the route's `errorFields`; `oauth` is RFC
 * 6749 §5.2 `{error, error_description}` with `Cache-Control: no-store` (§5.1), for the token and
 * revocation endpoints, whose clients read nothing else. Requests that match no route get `api`.
 */
export type ErrorShape = 'api' | 'oauth';

export interface ShapedError {
  readonly status: number;
  readonly body: object;
  readonly headers: Readonly<Record<string, string>>;
  /** The table's code (`1043`), for the access log and metrics whatever the shape. */
  readonly code: string;
}

const NONE = Object.freeze({});
const NO_STORE = Object.freeze({ 'cache-control': 'no-store', pragma: 'no-cache' });

export function shapedError(
  shape: ErrorShape,
  kind: ApiErrorKind,
  options: { readonly message?: string; readonly extra?: Readonly<Record<string, unknown>> } = {},
): ShapedError {
  const message = options.message === undefined ? {} : { message: options.message };
  if (shape === 'oauth') {
    const { status, body } = oauthError(kind, message);
    return { status, body, headers: NO_STORE, code: apiError(kind).body.error_code };
  }
  const { status, body } = apiError(kind, options.extra === undefined ? message : { ...message, extra: options.extra });
  return { status, body, headers: NONE, code: body.error_code };
}
