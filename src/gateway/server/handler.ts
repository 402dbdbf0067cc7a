import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { requestIdFrom } from '../proxy/passes/index.ts';
import { type AccessLine, finishRequest } from './access-log.ts';
import { admitted } from './admit.ts';
import { authenticate, decide } from './authorize.ts';
import { newContext, type StepDeps } from './context.ts';
import { answerAllowed, described } from './decision-steps.ts';
import { forward } from './forward-step.ts';
import { enter, type Generation, leave } from './generation.ts';
import { applyVerdict, limit } from './rate-limit.ts';
import { attachRecord, type RequestRecord, recordOf } from './record.ts';
import { runSteps, type Step } from './steps.ts';

export interface HandlerDeps extends StepDeps {
  current(): Generation;
  onIdle(gen: Generation): void;
  /** Where the per-request line goes (access-log.ts). */
  readonly accessLine: AccessLine;
  readonly metrics: GatewayMetrics;
}

/**
 * The request path, in order (http-proxy-3 `web-outgoing` style, like the header passes): each
 * step a plain function over the request's context, run by runSteps() (steps.ts), which owns the
 * asynchronous case, the guard after it and the last-resort answer. A step that answers the
 * request stops the run.
 */
const STEPS: readonly Step[] = [
  admitted, // limits, health, route (admit.ts); the trace starts
  authenticate, // public, key/secret, or the token check (may be asynchronous)
  decide, // 401/403, or the accepted token
  limit, // the route group's rate limits and the project's quota (may be asynchronous)
  applyVerdict, // 429/503, or the RateLimit fields
  forward, // header passes, body limit, the forwarder
];

/**
 * Forward-auth (`forwardAuth` configured): the same steps over the request the proxy describes,
 * with "answer 200 with the identity headers" in place of forwarding (decision-steps.ts).
 */
const DECISION_STEPS: readonly Step[] = [
  described, // trusted proxy, the original request from its headers
  admitted,
  authenticate,
  decide,
  limit,
  applyVerdict,
  answerAllowed, // 200 with the identity headers
];

/**
 * The request handler. The generation (config, router, forwarder, verifier) is read once, so a
 * reload never changes the rules half-way through a request.
 */
export function createHandler(deps: HandlerDeps) {
  // One shared listener, no closure per request: a response always ends with exactly one 'close'
  // (after 'finish' when the reply was handed to the socket, alone when it was cut short), so
  // `on` suffices; `once` would wrap the listener in a new closure every request.
  function done(this: ServerResponse): void {
    const record = recordOf(this) as RequestRecord;
    leave(record.gen, deps.onIdle);
    finishRequest(this, record, deps.accessLine, deps.metrics);
    record.trace?.end(this, record.route, record.decision, record.errorCode);
  }
  return function handle(req: IncomingMessage, res: ServerResponse): void {
    const gen = deps.current();
    const ctx = newContext(deps, req, res, requestIdFrom(req.headers), performance.now(), gen);
    enter(gen);
    attachRecord(res, ctx);
    res.on('close', done);
    runSteps(gen.forwardAuth === undefined ? STEPS : DECISION_STEPS, ctx, 0);
  };
}
