import type { ServerResponse } from 'node:http';
import { sendJson } from '#common';

/** What readiness depends on; each check is named in the 503 body so operators see which fails. */
export type ReadinessChecks = () => Readonly<Record<string, boolean>>;

export function sendHealth(res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' }, { 'cache-control': 'no-store' });
}

export function sendReadiness(res: ServerResponse, checks: ReadinessChecks): void {
  const results = checks();
  const ready = Object.values(results).every(Boolean);
  sendJson(
    res,
    ready ? 200 : 503,
    { status: ready ? 'ready' : 'not ready', checks: results },
    { 'cache-control': 'no-store' },
  );
}
