/** What one request's access-log line and metrics say; filled in as the request moves along. */
export interface RequestRecord {
  readonly requestId: string;
  readonly method: string;
  readonly startedAt: number;
  /** The configured route pattern, or a fixed label for unmatched requests (bounded label set). */
  route: string;
  decision: 'allowed' | 'denied' | 'public' | 'key_secret' | 'rejected' | 'health';
  errorCode: string;
  clientId: string | undefined;
  jti: string | undefined;
}

export function newRecord(requestId: string, method: string, startedAt: number): RequestRecord {
  return { requestId, method, startedAt, route: '(unmatched)', decision: 'rejected', errorCode: '', clientId: undefined, jti: undefined };
}
