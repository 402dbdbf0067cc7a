import type { ServerResponse } from 'node:http';
import { sendJson } from '#common';
import type { ReadinessReport } from '../verification/readiness.ts';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/**
 * `/healthz`: the process answers. `/readyz`: 200 only when every check passes and the gateway
 * is not stopping; the body says which fails (`draining: true` once it is stopping).
 */
export function sendHealth(
  res: ServerResponse,
  path: string,
  readiness: () => ReadinessReport,
  draining: boolean,
): void {
  if (path === '/healthz') {
    sendJson(res, 200, { status: 'ok' });
    return;
  }
  const report = readiness();
  const body = draining ? { ...report, ready: false, draining: true } : report;
  sendJson(res, body.ready ? 200 : 503, body, { 'cache-control': 'no-store' });
}
