import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { responseHeaders } from '../../../src/gateway/proxy/response-passes.ts';
import type { ForwardState } from '../../../src/gateway/proxy/state.ts';

function upstreamReply(raw: string[]): IncomingMessage {
  return { rawHeaders: raw } as unknown as IncomingMessage;
}

function state(clientConnection?: string): ForwardState {
  return {
    note: { requestId: 'req-7', errorCode: '' },
    route: { id: '/x', auth: 'none', requirement: { scopes: [], match: 'any' }, allowKeySecret: false, errorFields: {} },
    clientConnection,
    timedOut: undefined,
    proxyReq: undefined,
    answered: false,
  };
}

describe('responseHeaders', () => {
  it('drops the upstream hop-by-hop headers and those its Connection header names, keeping repeated headers as sent', () => {
    const raw = ['Content-Type', 'application/json', 'Connection', 'keep-alive, X-Hop', 'Keep-Alive', 'timeout=5', 'X-Hop', 'a', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'];
    expect(responseHeaders(upstreamReply(raw), state(), false)).toEqual([
      'Content-Type',
      'application/json',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'connection',
      'keep-alive',
      'x-request-id',
      'req-7',
    ]);
  });

  it("answers with this request's id, never the upstream's", () => {
    const out = responseHeaders(upstreamReply(['X-Request-Id', 'upstream-id']), state(), false);
    expect(out).toEqual(['connection', 'keep-alive', 'x-request-id', 'req-7']);
  });

  it('closes when the client asked to, and for HTTP/1.0 clients, which also lose chunked framing', () => {
    expect(responseHeaders(upstreamReply([]), state('Close'), false)).toContain('close');
    const http10 = responseHeaders(upstreamReply(['Transfer-Encoding', 'chunked']), state(), true);
    expect(http10).toEqual(['connection', 'close', 'x-request-id', 'req-7']);
  });
});
