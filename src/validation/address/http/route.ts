import { apiError, type Logger } from '#common';
import type { ValidationRequest, ValidationResponse, ValidationRoute } from '../../types.ts';
import { ParamError } from './params.ts';

/**
 * Wraps an address handler as a ValidationRoute: parameter errors become 1000 with the
 * message naming the parameter, anything unexpected becomes 1099 (detail to the log only),
 * and every error body carries the route's extra fields (`completions: []` on every address route, as the API documents).
 */
export function addressRoute(
  path: string,
  errorExtra: Readonly<Record<string, unknown>>,
  handle: (query: URLSearchParams) => ValidationResponse,
): ValidationRoute {
  return {
    path,
    scope: 'address',
    errorExtra,
    handle(request: ValidationRequest): ValidationResponse {
      try {
        return handle(request.query);
      } catch (error) {
        return failure(error, errorExtra, request.log);
      }
    },
  };
}

function failure(error: unknown, extra: Readonly<Record<string, unknown>>, log: Logger): ValidationResponse {
  if (error instanceof ParamError) return apiError('validation_failed', { message: error.message, extra });
  log.error({ err: error }, 'address handler failed');
  return apiError('internal_error', { extra });
}
