import type { Clock } from '#common';
import type { Buckets, Taken } from './buckets.ts';
import { policyField, stateItem } from './headers.ts';
import { type Limit, quotaLimit } from './limit.ts';
import { type Month, monthOf } from './month.ts';
import type { CompiledPlans } from './plans.ts';
import type { PolicyBook } from './policy-book.ts';
import type { UsageCounter } from './usage.ts';

export interface LimitHeaders {
  readonly 'ratelimit-policy': string;
  readonly ratelimit: string;
}

export type Verdict =
  | { readonly ok: true; readonly headers: LimitHeaders | undefined }
  | {
      readonly ok: false;
      readonly kind: 'rate_limited' | 'quota_exhausted' | 'rate_limits_unavailable';
      readonly retryAfterSec: number;
      /** The quota's reset (the next month's start, ms), for 1046's message. */
      readonly resetAt: number;
      readonly headers: LimitHeaders | undefined;
    };

const ADMIT: Verdict = Object.freeze({ ok: true, headers: undefined });

interface Counter {
  readonly key: string;
  readonly limit: Limit;
  readonly resetAt: number;
}

/** The counters one call takes a token of, and what its admission is counted under. */
interface Calls {
  readonly counters: Counter[];
  readonly project: string | undefined;
  readonly quota: number | undefined;
}

export interface Limiter {
  /**
   * Takes one call of `client` (and its project, when known) on a route group: every counter
   * that applies gives a token, or the call is refused and the tokens already taken go back.
   */
  check(plans: CompiledPlans, group: string, client: string, project: string | undefined): Verdict | Promise<Verdict>;
}

export function createLimiter(buckets: Buckets, book: PolicyBook, clock: Clock, usage: UsageCounter): Limiter {
  let month: Month = monthOf(clock.now());
  const quotas = new Map<number, Limit>();
  function quotaOf(calls: number): Limit {
    let limit = quotas.get(calls);
    if (limit === undefined) {
      limit = quotaLimit(calls, month.seconds);
      quotas.set(calls, limit);
    }
    return limit;
  }

  function countersFor(
    plans: CompiledPlans,
    group: string,
    client: string,
    project: string | undefined,
    now: number,
  ): Calls {
    const rules = book.rulesFor(plans, project);
    const counters: Counter[] = [];
    const calls: Calls = { counters, project, quota: rules.monthlyQuota };
    const rates = rules.groups.get(group);
    if (rates?.client) counters.push({ key: `c:${group}:${client}`, limit: rates.client, resetAt: Infinity });
    if (project === undefined) return calls;
    if (rates?.project) counters.push({ key: `p:${group}:${project}`, limit: rates.project, resetAt: Infinity });
    if (rules.monthlyQuota !== undefined) {
      if (now >= month.endMs || now < month.startMs) {
        month = monthOf(now);
        quotas.clear();
      }
      counters.push({ key: `q:${project}:${month.key}`, limit: quotaOf(rules.monthlyQuota), resetAt: month.endMs });
    }
    return calls;
  }

  function run(calls: Calls, from: number, states: string[], now: number): Verdict | Promise<Verdict> {
    const { counters } = calls;
    for (let i = from; i < counters.length; i++) {
      const c = counters[i] as Counter;
      const taken = buckets.take(c.key, c.limit, now, c.resetAt);
      if (taken instanceof Promise)
        return taken.then((t) => settle(counters, i, t, states, now) ?? run(calls, i + 1, states, now));
      const verdict = settle(counters, i, taken, states, now);
      if (verdict !== undefined) return verdict;
    }
    if (calls.project !== undefined) usage.count(calls.project, now, calls.quota);
    return counters.length === 0 ? ADMIT : admitted(counters, states);
  }

  /** A refusal (the tokens taken before it go back), or undefined to go on to the next counter. */
  function settle(counters: Counter[], i: number, taken: Taken, states: string[], now: number): Verdict | undefined {
    const c = counters[i] as Counter;
    if (taken.ok) {
      states.push(stateItem(c.limit, taken.remaining, taken.resetSec));
      return undefined;
    }
    for (let j = 0; j < i; j++) buckets.refund((counters[j] as Counter).key, (counters[j] as Counter).limit);
    const retryAfterSec = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    return {
      ok: false,
      kind: taken.unavailable
        ? 'rate_limits_unavailable'
        : c.limit.name === 'quota'
          ? 'quota_exhausted'
          : 'rate_limited',
      retryAfterSec,
      resetAt: c.resetAt === Infinity ? now + retryAfterSec * 1000 : c.resetAt,
      headers: {
        'ratelimit-policy': policyField(counters.map((x) => x.limit)),
        ratelimit: stateItem(c.limit, 0, retryAfterSec),
      },
    };
  }

  function admitted(counters: Counter[], states: string[]): Verdict {
    return {
      ok: true,
      headers: { 'ratelimit-policy': policyField(counters.map((x) => x.limit)), ratelimit: states.join(', ') },
    };
  }

  return {
    check(plans, group, client, project) {
      const now = clock.now();
      return run(countersFor(plans, group, client, project, now), 0, [], now);
    },
  };
}
