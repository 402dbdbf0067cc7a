import { describe, expect, it } from 'vitest';
import { ADMIN_ERRORS, AdminError } from '#admin';
import { API_ERRORS } from '#common';
import { IssuerInputError } from '#issuer';
import { StoreError, StoreUnavailableError } from '#store';
import { asAdminError } from '../../src/admin/errors.ts';

describe('admin errors', () => {
  it('gives every kind a status and a code of the one error table', () => {
    const answers = Object.entries(ADMIN_ERRORS).map(([kind, { status, error }]) => [
      kind,
      status,
      API_ERRORS[error].code,
    ]);
    expect(answers).toEqual([
      ['invalid_input', 400, '1000'],
      ['not_found', 404, '1011'],
      ['forbidden', 403, '1000'],
      ['conflict', 409, '1000'],
      ['not_hosted', 404, '1041'],
      ['incomplete', 500, '1099'],
      ['unavailable', 503, '1055'],
    ]);
  });

  it("reads an error's status from its kind", () => {
    expect(new AdminError('conflict', 'no').status).toBe(409);
  });

  it("turns the issuer's and the store's refusals into admin errors, and leaves any other failure alone", () => {
    expect(asAdminError(new IssuerInputError('not ours'))).toMatchObject({
      kind: 'invalid_input',
      message: 'not ours',
    });
    expect(asAdminError(new StoreError('project_not_found', 'gone'))).toMatchObject({ kind: 'not_found' });
    expect(asAdminError(new StoreError('plan_forbids_oauth', 'free'))).toMatchObject({ kind: 'conflict' });
    expect(asAdminError(new StoreError('client_name_taken', 'a client named "c" already exists'))).toMatchObject({
      kind: 'conflict',
      message: 'name: a client named "c" already exists',
    });
    const outage = new StoreUnavailableError(new Error('Connection terminated unexpectedly'));
    expect(asAdminError(outage)).toMatchObject({ kind: 'unavailable', status: 503, cause: outage });
    expect(asAdminError(new StoreError('signing_keys_changed', 'raced'))).toBeUndefined();
    expect(asAdminError(new Error('Connection terminated unexpectedly'))).toBeUndefined();
  });
});
