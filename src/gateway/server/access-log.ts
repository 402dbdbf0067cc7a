import type { ServerResponse } from 'node:http';
import type { Logger } from '#common';
import type { GatewayMetrics } from '../ops/metrics.ts';
import type { RequestRecord } from './record.ts';

/**
 * One line per request when the response is done: id, route, status, decision, error code and
 * latency; the client id and jti for accepted tokens. Never a header value, token or query
 * string (the query may carry `key`/`secret`), so nothing here needs redacting.
 */
export function finishRequest(res: ServerResponse, record: RequestRecord, log: Logger, metrics: GatewayMetrics): void {
  const status = res.statusCode;
  metrics.requests.inc({ route: record.route, status: String(status), error_code: record.errorCode });
  log.info(
    {
      reqId: record.requestId,
      method: record.method,
      route: record.route,
      status,
      decision: record.decision,
      errorCode: record.errorCode || undefined,
      clientId: record.clientId,
      jti: record.jti,
      aborted: res.writableFinished ? undefined : true,
      ms: Math.round((performance.now() - record.startedAt) * 100) / 100,
    },
    'request',
  );
}
