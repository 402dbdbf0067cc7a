import type { ServerResponse } from 'node:http';
import { sendJson } from '#common';
import type { BucketsStatus } from '../ratelimit/buckets.ts';
import type { ReadinessReport } from '../verification/readiness.ts';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/**
 * `/healthz`: the process answers. `/readyz`: 200 only when every check passes and the gateway
 * is not stopping; the body says which fails (`draining: true` once it is stopping). With rate
 * limits in Redis, `checks.rateLimits` says whether Redis is connected; unreachable, it fails
 * readiness only when fail-closed (a fail-open gateway still serves, by its own counts).
 */
export function sendHealth(
  res: ServerResponse,
  path: string,
  readiness: () => ReadinessReport,
  draining: boolean,
  rateLimits?: () => BucketsStatus,
): void {
  if (path === '/healthz') {
    sendJson(res, 200, { status: 'ok' });
    return;
  }
  const report = withRateLimits(readiness(), rateLimits?.());
  const body = draining ? { ...report, ready: false, draining: true } : report;
  sendJson(res, body.ready ? 200 : 503, body, { 'cache-control': 'no-store' });
}

function withRateLimits(report: ReadinessReport, status: BucketsStatus | undefined) {
  if (status === undefined || status.store === 'memory') return report;
  const ok = status.connected || status.failOpen;
  return { ...report, ready: report.ready && ok, checks: { ...report.checks, rateLimits: { ok, ...status } } };
}
