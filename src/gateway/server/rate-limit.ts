import type { ServerResponse } from 'node:http';
import { utcTimestamp } from '#common';
import type { Verdict } from '../ratelimit/limiter.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import type { RequestRecord } from './record.ts';
import { sendApiError } from './respond.ts';

/**
 * A refused call: 429 `1045` (a rate limit) or `1046` (the monthly quota, its message naming the
 * next month's start), or 503 `1056` (Redis unreachable and fail-closed), each with Retry-After
 * and the RateLimit fields.
 */
export function answerLimited(
  res: ServerResponse,
  record: RequestRecord,
  route: CompiledRoute,
  verdict: Exclude<Verdict, { ok: true }>,
): void {
  record.decision = 'denied';
  sendApiError(res, record, verdict.kind, {
    extra: route.errorFields,
    headers: { 'retry-after': String(verdict.retryAfterSec), ...verdict.headers },
    ...(verdict.kind === 'quota_exhausted'
      ? { message: `Monthly quota exhausted until ${utcTimestamp(Math.floor(verdict.resetAt / 1000))}` }
      : {}),
  });
}

/** An admitted call's RateLimit fields go on the upstream's response (set before it is relayed). */
export function setLimitHeaders(res: ServerResponse, verdict: Extract<Verdict, { ok: true }>): void {
  if (verdict.headers === undefined) return;
  res.setHeader('ratelimit-policy', verdict.headers['ratelimit-policy']);
  res.setHeader('ratelimit', verdict.headers.ratelimit);
}
