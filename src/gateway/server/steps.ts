import type { RequestContext } from './context.ts';
import { answerInternalError } from './last-resort.ts';

/**
 * What a step tells the runner: `true` go on to the next step, `false` stop (the request has been
 * answered, or handed to the forwarder), or a promise: go on with the next step once it fulfils
 * (the step stores what it learned on the context first).
 */
export type Flow = boolean | Promise<void>;

/** One step of the request path: a plain function over the request's context. */
export type Step = (ctx: RequestContext) => Flow;

/**
 * Runs `steps` over `ctx` from step `from`. Synchronous steps run in one loop, with no promise
 * made; the asynchronous case, the guard after it and the last resort are written once, here.
 *
 * The last resort (last-resort.ts): nothing thrown for one request may end the process. One try
 * around the loop; V8 optimises it, and it costs nothing until something throws.
 */
export function runSteps(steps: readonly Step[], ctx: RequestContext, from: number): void {
  try {
    for (let i = from; i < steps.length; i++) {
      const flow = (steps[i] as Step)(ctx);
      if (flow === true) continue;
      if (flow === false) return;
      ctx.next = i + 1;
      flow.then(
        () => resume(steps, ctx),
        (error: unknown) => fail(ctx, error),
      );
      return;
    }
  } catch (error) {
    fail(ctx, error);
  }
}

/**
 * The continuation of an asynchronous step (batched signature check, unknown-kid refetch, the
 * rate limiter's Redis): the client may be gone by now, or a drain that ran out of time answered
 * 503 (drain.ts); then there is nothing left to do.
 */
function resume(steps: readonly Step[], ctx: RequestContext): void {
  if (ctx.res.destroyed || ctx.res.writableEnded) return;
  runSteps(steps, ctx, ctx.next);
}

function fail(ctx: RequestContext, error: unknown): void {
  answerInternalError(ctx.deps.log, ctx.req, ctx.res, ctx, ctx.matched, error);
}
