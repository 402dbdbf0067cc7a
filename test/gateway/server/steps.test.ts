import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { type RequestContext, newContext } from '../../../src/gateway/server/context.ts';
import type { Generation } from '../../../src/gateway/server/generation.ts';
import { runSteps, type Step } from '../../../src/gateway/server/steps.ts';

const lastResort = vi.hoisted(() => ({ calls: [] as Array<{ ctx: unknown; error: unknown }> }));

vi.mock(import('../../../src/gateway/server/last-resort.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  answerInternalError(_log, _req, _res, record, _route, error): void {
    lastResort.calls.push({ ctx: record, error });
  },
}));

function context(): RequestContext {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  const log = { debug: vi.fn(), error: vi.fn() } as unknown as RequestContext['deps']['log'];
  return newContext({ log, metrics: { verification: { observe: vi.fn() } } }, req, res, 'steps-1', 0, {} as Generation);
}

/** A step that notes its name on `seen` and answers `flow`. */
const step =
  (seen: string[], name: string, flow: () => ReturnType<Step>): Step =>
  () => {
    seen.push(name);
    return flow();
  };

describe('runSteps: the request path as an ordered list of steps', () => {
  it('runs synchronous steps in order, in the same turn, until one stops', () => {
    const seen: string[] = [];
    const steps = [step(seen, 'a', () => true), step(seen, 'b', () => false), step(seen, 'c', () => true)];
    runSteps(steps, context(), 0);
    expect(seen).toEqual(['a', 'b']);
  });

  it('goes on with the next step once an asynchronous step fulfils', async () => {
    const seen: string[] = [];
    const steps = [step(seen, 'a', () => Promise.resolve()), step(seen, 'b', () => true), step(seen, 'c', () => false)];
    runSteps(steps, context(), 0);
    expect(seen).toEqual(['a']);
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b', 'c']));
  });

  it('runs nothing more after an asynchronous step when the response has ended or its client left', async () => {
    for (const end of [(res: ServerResponse) => res.end(), (res: ServerResponse) => res.destroy()]) {
      const seen: string[] = [];
      const ctx = context();
      let settle = () => {};
      const steps = [
        step(seen, 'a', () => new Promise<void>((resolve) => (settle = resolve))),
        step(seen, 'b', () => true),
      ];
      runSteps(steps, ctx, 0);
      end(ctx.res);
      settle();
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual(['a']);
    }
  });

  it('hands a throw, a rejection or a throw after an asynchronous step to the last resort, once', async () => {
    const thrown = new TypeError('sync');
    const rejected = new Error('async');
    const later = new RangeError('after');
    const cases: Array<{ steps: Step[]; error: unknown }> = [
      {
        steps: [
          () => {
            throw thrown;
          },
        ],
        error: thrown,
      },
      { steps: [() => Promise.reject(rejected)], error: rejected },
      {
        steps: [
          () => Promise.resolve(),
          () => {
            throw later;
          },
        ],
        error: later,
      },
    ];
    for (const { steps, error } of cases) {
      lastResort.calls.length = 0;
      const ctx = context();
      runSteps(steps, ctx, 0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lastResort.calls).toEqual([{ ctx, error }]);
    }
  });
});
