import type { ServerResponse } from 'node:http';
import { utcTimestamp } from '#common';
import type { Verdict } from '../ratelimit/limiter.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import type { RequestContext } from './context.ts';
import type { RequestRecord } from './record.ts';
import { sendApiError } from './respond.ts';
import type { Flow } from './steps.ts';

/**
 * The route group's rate limits and the project's quota (ratelimit/limiter.ts) for a call with
 * someone to count (not `auth: none`): counted in process, or a promise when Redis counts.
 */
export function limit(ctx: RequestContext): Flow {
  const limiting = ctx.deps.rateLimiting;
  const group = (ctx.matched as CompiledRoute).rateLimitGroup;
  const plans = ctx.gen.plans;
  if (ctx.client === undefined || limiting === undefined || group === undefined || plans === undefined) return true;
  const verdict = limiting.limiter.check(plans, group, ctx.client, ctx.project);
  if (!(verdict instanceof Promise)) {
    ctx.verdict = verdict;
    return true;
  }
  return verdict.then((settled) => {
    ctx.verdict = settled;
  });
}

/** The limiter's verdict: a refused call is answered here; an admitted one carries its RateLimit fields. */
export function applyVerdict(ctx: RequestContext): Flow {
  const verdict = ctx.verdict;
  if (verdict === undefined) return true;
  if (!verdict.ok) {
    answerLimited(ctx.res, ctx, ctx.matched as CompiledRoute, verdict);
    return false;
  }
  setLimitHeaders(ctx.res, verdict);
  return true;
}

/**
 * A refused call: 429 `1045` (a rate limit) or `1046` (the monthly quota, its message naming the
 * next month's start), or 503 `1056` (Redis unreachable and fail-closed), each with Retry-After
 * and the RateLimit fields.
 */
function answerLimited(
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
function setLimitHeaders(res: ServerResponse, verdict: Extract<Verdict, { ok: true }>): void {
  if (verdict.headers === undefined) return;
  res.setHeader('ratelimit-policy', verdict.headers['ratelimit-policy']);
  res.setHeader('ratelimit', verdict.headers.ratelimit);
}
