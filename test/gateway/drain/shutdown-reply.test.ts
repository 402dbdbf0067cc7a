import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { type ForwardState, setForwardState } from '../../../src/gateway/proxy/state.ts';
import type { CompiledRoute } from '../../../src/gateway/routing/compile.ts';
import type { Generation } from '../../../src/gateway/server/generation.ts';
import { type StepDeps, newContext } from '../../../src/gateway/server/context.ts';
import { attachRecord } from '../../../src/gateway/server/record.ts';
import { sendShuttingDown } from '../../../src/gateway/server/shutdown-reply.ts';

describe('the reply a drain gives a forwarded request when drainTimeoutMs runs out', () => {
  it('cancels the upstream request and marks the request answered, so its proxy error sends nothing more', () => {
    // In a running gateway the upstream sockets are closed right after the drain anyway, which
    // hides whether this reply cancelled the request: checked here on the reply itself.
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    const record = newContext({} as StepDeps, req, res, 'drain-1', 0, {} as Generation);
    attachRecord(res, record);
    const upstreamRequest = { destroy: vi.fn() };
    const route = { id: '/api/*', errorFields: { completions: [] } } as unknown as CompiledRoute;
    const state: ForwardState = {
      note: record,
      route,
      timedOut: undefined,
      upstreamRequest,
      answered: false,
    };
    setForwardState(req, state);

    expect(sendShuttingDown(res)).toBe(true);
    expect(upstreamRequest.destroy).toHaveBeenCalledOnce();
    expect(state.answered).toBe(true);
    expect(res.statusCode).toBe(503);
    expect(record.errorCode).toBe('1054');
  });
});
