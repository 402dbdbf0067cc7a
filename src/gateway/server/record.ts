import type { VerifiedToken } from '#auth';
import type { Generation } from './generation.ts';

/** What one request's access-log line and metrics say; filled in as the request moves along. */
export interface RequestRecord {
  readonly requestId: string;
  readonly method: string;
  readonly startedAt: number;
  /** The generation (configuration) the request started on; left when the response closes. */
  readonly gen: Generation;
  /** The configured route pattern, or a fixed label for unmatched requests (bounded label set). */
  route: string;
  decision: 'allowed' | 'denied' | 'public' | 'key_secret' | 'rejected' | 'health';
  errorCode: string;
  /** The accepted token (its client id and jti are logged), else undefined. */
  token: VerifiedToken | undefined;
}

export function newRecord(requestId: string, method: string, startedAt: number, gen: Generation): RequestRecord {
  return { requestId, method, startedAt, gen, route: '(unmatched)', decision: 'rejected', errorCode: '', token: undefined };
}
