import type { ServerResponse } from 'node:http';
import type { VerifiedToken } from '#auth';
import type { ErrorShape } from '../routing/error-shape.ts';
import type { RequestTrace } from '../tracing/types.ts';
import type { Generation } from './generation.ts';

/** What one request's access-log line and metrics say; filled in as the request moves along. */
export interface RequestRecord {
  readonly requestId: string;
  /** The request's method; in forward-auth, the one the proxy describes. */
  method: string;
  readonly startedAt: number;
  /** The generation (configuration) the request started on; left when the response closes. */
  readonly gen: Generation;
  /** The configured route pattern, or a fixed label for unmatched requests (bounded label set). */
  route: string;
  decision: 'allowed' | 'denied' | 'public' | 'key_secret' | 'rejected' | 'health';
  errorCode: string;
  /** The body of the gateway's own errors: its route's shape once admit() has found the route. */
  errorShape: ErrorShape;
  /** The accepted token (its client id and jti are logged), else undefined. */
  token: VerifiedToken | undefined;
  /** Its spans, when tracing is on; undefined (and nothing made) when it is off. */
  trace: RequestTrace | undefined;
}

const RECORD = Symbol('tokengate.record');
type WithRecord = ServerResponse & { [RECORD]?: RequestRecord };

/**
 * Keeps the record on its response: the response's 'close' listener logs it, and a drain that
 * answers for the request fills it in.
 */
export function attachRecord(res: ServerResponse, record: RequestRecord): void {
  (res as WithRecord)[RECORD] = record;
}

export function recordOf(res: ServerResponse): RequestRecord | undefined {
  return (res as WithRecord)[RECORD];
}
