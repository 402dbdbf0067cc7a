import { apiError } from '#common';
import type { ValidationRequest, ValidationResponse, ValidationRoute } from '../types.ts';
import { parsePhoneParams } from './params.ts';
import { verifyPhone } from './verify.ts';

export const PHONE_PATH = '/api/phone/v1/verification';
const ERROR_EXTRA = { completions: [] } as const;

/**
 * The phone verification route. It needs no options today; the parameter keeps the factory
 * shape of the other routes for when a carrier lookup (and its timeout) is added.
 */
export function createPhoneRoute(_options: Readonly<Record<string, never>> = {}): ValidationRoute {
  function handle(request: ValidationRequest): ValidationResponse {
    const params = parsePhoneParams(request.query);
    if (!params.ok) return apiError('validation_failed', { message: params.error, extra: ERROR_EXTRA });
    return { status: 200, body: verifyPhone(params.value) };
  }
  return { path: PHONE_PATH, scope: 'phone', errorExtra: ERROR_EXTRA, handle };
}
