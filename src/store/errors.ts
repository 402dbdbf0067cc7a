/** Why a store write was refused. Hosts map these to API errors; messages carry no secrets. */
export type StoreErrorCode = 'project_not_found' | 'plan_forbids_oauth' | 'signing_key_not_found';

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}
