import type { ServerResponse } from 'node:http';
import { sendJson } from '#common';
import type { ReadinessReport } from '../verification/readiness.ts';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/** `/healthz`: the process answers. `/readyz`: 200 only when every check passes; the body says which fails. */
export function sendHealth(res: ServerResponse, path: string, readiness: () => ReadinessReport): void {
  if (path === '/healthz') {
    sendJson(res, 200, { status: 'ok' });
    return;
  }
  const report = readiness();
  sendJson(res, report.ready ? 200 : 503, report, { 'cache-control': 'no-store' });
}
