import { describe, expect, it } from 'vitest';
import { responseHeaders } from '../../../src/gateway/proxy/response-passes.ts';
import type { ForwardState } from '../../../src/gateway/proxy/state.ts';

/** The upstream's reply head as both engines hand it over: a flat name, value list. */
function upstreamReply(raw: string[]): string[] {
  return raw;
}

function state(): ForwardState {
  return {
    note: { requestId: 'req-7', errorCode: '' },
    route: {
      id: '/x',
      auth: 'none',
      requirement: { scopes: [], match: 'any' },
      allowKeySecret: false,
      errorFields: {},
      errorShape: 'api',
      rateLimitGroup: undefined,
      claimCheck: undefined,
      claimHeaders: undefined,
    },
    timedOut: undefined,
    upstreamRequest: undefined,
    answered: false,
  };
}

describe('responseHeaders', () => {
  it('drops the upstream hop-by-hop headers and those its Connection header names, keeping repeated headers as sent', () => {
    const raw = [
      'Content-Type',
      'application/json',
      'Connection',
      'keep-alive, X-Hop',
      'Keep-Alive',
      'timeout=5',
      'X-Hop',
      'a',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ];
    expect(responseHeaders(upstreamReply(raw), state(), false, true)).toEqual([
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
    const out = responseHeaders(upstreamReply(['X-Request-Id', 'upstream-id']), state(), false, true);
    expect(out).toEqual(['connection', 'keep-alive', 'x-request-id', 'req-7']);
  });

  it('closes when the client asked to (Node then keeps no connection), and for HTTP/1.0 clients, which also lose chunked framing', () => {
    expect(responseHeaders(upstreamReply([]), state(), false, false)).toContain('close');
    const http10 = responseHeaders(upstreamReply(['Transfer-Encoding', 'chunked']), state(), true, true);
    expect(http10).toEqual(['connection', 'close', 'x-request-id', 'req-7']);
  });

  it('closes when the reply is not to keep its connection (the gateway is draining)', () => {
    expect(responseHeaders(upstreamReply(['Content-Type', 'text/plain']), state(), false, false)).toEqual([
      'Content-Type',
      'text/plain',
      'connection',
      'close',
      'x-request-id',
      'req-7',
    ]);
  });
});

describe('responseHeaders, header names in any case', () => {
  const hopByHop = [
    'connection',
    'keep-alive',
    'proxy-connection',
    'proxy-authenticate',
    'proxy-authorization',
    'te',
    'trailer',
    'upgrade',
    'x-request-id',
  ];
  const spellings = (name: string) => [
    name,
    name.toUpperCase(),
    name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()),
  ];

  it('drops every hop-by-hop name and the upstream request id however the upstream spells them', () => {
    for (const name of hopByHop) {
      for (const spelled of spellings(name)) {
        const out = responseHeaders(upstreamReply([spelled, 'x', 'Content-Type', 'text/plain']), state(), false, true);
        expect(out, spelled).toEqual([
          'Content-Type',
          'text/plain',
          'connection',
          'keep-alive',
          'x-request-id',
          'req-7',
        ]);
      }
    }
  });

  it('keeps transfer-encoding in any case for HTTP/1.1 clients', () => {
    for (const spelled of spellings('transfer-encoding'))
      expect(responseHeaders(upstreamReply([spelled, 'chunked']), state(), false, true)[0]).toBe(spelled);
  });

  it('keeps names of the same length that only look alike', () => {
    const lookalikes = [
      'Content-Type',
      'x-request-ie',
      'connectiom',
      'Keep-Alivf',
      'tf',
      'TRAILEs',
      'upgradf',
      'proxy-connectiom',
      'x_request-id',
      'x-request-\u0109d',
    ];
    const raw = lookalikes.flatMap((name) => [name, 'v']);
    const out = responseHeaders(upstreamReply(raw), state(), false, true);
    expect(out.filter((_, i) => i % 2 === 0)).toEqual([...lookalikes, 'connection', 'x-request-id']);
  });
});
