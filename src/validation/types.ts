import type { Logger, Scope } from '#common';

/**
 * Contract between the validation handlers and the upstream server that hosts them.
 * Handlers are framework-neutral: they get parsed query parameters and the authenticated
 * project, and return a status and a JSON body. Authentication happens before them.
 */
export interface ValidationRequest {
  readonly query: URLSearchParams;
  /** The project the caller authenticated as (bearer token or key/secret). */
  readonly projectId: string;
  readonly log: Logger;
}

export interface ValidationResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface ValidationRoute {
  /** Exact path, e.g. `/api/au/address/autocomplete`. */
  readonly path: string;
  readonly scope: Scope;
  /** Extra fields every error body of this route carries (autocomplete: `{completions: []}`). */
  readonly errorExtra: Readonly<Record<string, unknown>>;
  handle(request: ValidationRequest): Promise<ValidationResponse> | ValidationResponse;
}
