import type { ClientRequest } from 'node:http';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { armConnectTimeout } from '../../../src/gateway/proxy/engine-http-proxy.ts';
import type { ForwardState } from '../../../src/gateway/proxy/state.ts';
import { compileRoute } from '../../../src/gateway/routing/compile.ts';

// A loopback upstream always connects at once, so the connect timeout is shown on its own:
// a socket that never connects must fail the request (502: the upstream is unreachable), not hang.
function fakes() {
  const socket = new EventEmitter() as Socket;
  const proxyReq = Object.assign(new EventEmitter(), {
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
  });
  const state: ForwardState = {
    note: { requestId: 'r', errorCode: '' },
    route: compileRoute({
      path: '/x',
      methods: ['GET'],
      auth: 'none',
      scopes: [],
      match: 'any',
      allowKeySecret: false,
      errorFields: {},
      errorShape: 'api',
    }),
    timedOut: undefined,
    upstreamRequest: undefined,
    answered: false,
  };
  return { socket, proxyReq, state };
}

describe('the upstream connect timeout', () => {
  // The timer is node's own: vitest's fake timers move it, so no test waits for it in real time.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('destroys the upstream request and marks it a connect timeout when the socket never connects', async () => {
    const { socket, proxyReq, state } = fakes();
    armConnectTimeout(proxyReq as unknown as ClientRequest, socket, state, 5);
    vi.advanceTimersByTime(4);
    expect(state.timedOut).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(state.timedOut).toBe('connect');
    expect(proxyReq.destroyed).toBe(true);
  });

  it('does nothing once the socket has connected', async () => {
    const { socket, proxyReq, state } = fakes();
    armConnectTimeout(proxyReq as unknown as ClientRequest, socket, state, 5);
    socket.emit('connect');
    vi.advanceTimersByTime(30);
    expect(state.timedOut).toBeUndefined();
    expect(proxyReq.destroyed).toBe(false);
  });
});
