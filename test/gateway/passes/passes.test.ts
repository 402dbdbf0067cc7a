import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { VerifiedToken } from '#auth';
import { setForwarded } from '../../../src/gateway/proxy/passes/forwarded.ts';
import {
  IDENTITY_HEADER,
  identityValue,
  injectIdentity,
  isInboundIdentity,
} from '../../../src/gateway/proxy/passes/identity.ts';
import {
  copyWithout,
  type ForwardContext,
  forwardHeaders,
  isHopByHop,
  requestIdFrom,
  SET_PASSES,
  STRIP_PASSES,
} from '../../../src/gateway/proxy/passes/index.ts';
import { setRequestId } from '../../../src/gateway/proxy/passes/request-id.ts';

const token: VerifiedToken = {
  sub: 'client-1',
  clientId: 'client-1',
  projectId: 'project-9',
  scopes: ['address', 'phone'],
  jti: 'jti-42',
  iat: 1,
  exp: 2,
};

function context(overrides: Partial<ForwardContext> = {}): ForwardContext {
  return { requestId: 'req-1', remoteAddress: '192.0.2.7', encrypted: false, token: undefined, ...overrides };
}

describe('isHopByHop', () => {
  it('drops connection-level headers and every header the Connection header names', () => {
    const headers: IncomingHttpHeaders = {
      connection: 'keep-alive, X-Secret-Hop',
      'keep-alive': 'timeout=5',
      'x-secret-hop': 'a',
      te: 'trailers',
      upgrade: 'h2c',
      'proxy-authorization': 'Basic abc',
      'transfer-encoding': 'chunked',
      accept: 'application/json',
    };
    expect(copyWithout(headers, [isHopByHop])).toEqual({ 'transfer-encoding': 'chunked', accept: 'application/json' });
  });

  it('drops Expect, which this hop has already answered with 100 Continue', () => {
    expect(copyWithout({ expect: '100-continue', 'content-length': '5' }, [isHopByHop])).toEqual({
      'content-length': '5',
    });
  });

  it('keeps transfer-encoding even when Connection names it (Node re-frames the body)', () => {
    expect(isHopByHop('transfer-encoding', { connection: 'transfer-encoding' })).toBe(false);
  });
});

describe('isInboundIdentity', () => {
  it('drops every inbound x-tokengate-* header so a client cannot assert an identity', () => {
    const headers: IncomingHttpHeaders = {
      'x-tokengate-client-id': 'forged',
      'x-tokengate-anything': 'x',
      'x-other': 'kept',
    };
    expect(copyWithout(headers, [isInboundIdentity])).toEqual({ 'x-other': 'kept' });
  });
});

describe('injectIdentity', () => {
  it('sets client id, project id, scopes and jti from the verified token as one structured field', () => {
    const headers: IncomingHttpHeaders = {};
    injectIdentity(headers, context({ token }));
    expect(headers).toEqual({
      'x-tokengate-identity': 'client_id="client-1", project_id="project-9", scope="address phone", jti="jti-42"',
    });
  });

  it('builds the value once per token object', () => {
    expect(identityValue(token)).toBe(identityValue(token));
    const other = { ...token, clientId: 'client-2' };
    expect(identityValue(other)).toMatch(/^client_id="client-2", /);
    expect(identityValue(token)).toMatch(/^client_id="client-1", /);
  });

  it('sets nothing without a verified token', () => {
    const headers: IncomingHttpHeaders = {};
    injectIdentity(headers, context());
    expect(headers).toEqual({});
  });
});

describe('setForwarded', () => {
  it('appends the peer address and states the proto and host this hop saw', () => {
    const headers: IncomingHttpHeaders = {
      host: 'api.example',
      'x-forwarded-for': '203.0.113.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil',
    };
    setForwarded(headers, context());
    expect(headers).toMatchObject({
      'x-forwarded-for': '203.0.113.1, 192.0.2.7',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'api.example',
    });
  });

  it('starts the chain when there is none and marks TLS connections https', () => {
    const headers: IncomingHttpHeaders = { host: 'h' };
    setForwarded(headers, context({ encrypted: true }));
    expect(headers).toMatchObject({ 'x-forwarded-for': '192.0.2.7', 'x-forwarded-proto': 'https' });
  });

  it("drops the client's X-Forwarded-Host when the request has no Host (HTTP/1.0), rather than pass it on as this hop's", () => {
    const headers: IncomingHttpHeaders = { 'x-forwarded-host': 'evil.example' };
    setForwarded(headers, context());
    expect(headers).toEqual({ 'x-forwarded-for': '192.0.2.7', 'x-forwarded-proto': 'http' });
  });

  it('appends this hop to an inbound Forwarded header, quoting IPv6 and the host (RFC 7239)', () => {
    const headers: IncomingHttpHeaders = { host: 'api.example:8080', forwarded: 'for=203.0.113.1;proto=https' };
    setForwarded(headers, context());
    expect(headers.forwarded).toBe('for=203.0.113.1;proto=https, for=192.0.2.7;host="api.example:8080";proto=http');
    const v6: IncomingHttpHeaders = { host: 'h"\\x', forwarded: 'for=unknown' };
    setForwarded(v6, context({ remoteAddress: '::1', encrypted: true }));
    expect(v6.forwarded).toBe('for=unknown, for="[::1]";host="h\\"\\\\x";proto=https');
  });

  it('keeps a well-formed inbound Forwarded list, quoted commas and empty members included', () => {
    for (const inbound of ['for="[2001:db8::1]:4711";by="a,b", for=x', ' for=a ; by=b ,, for=c', 'for="q\\"x"']) {
      const headers: IncomingHttpHeaders = { host: 'h', forwarded: inbound };
      setForwarded(headers, context());
      expect(headers.forwarded).toBe(`${inbound}, for=192.0.2.7;host="h";proto=http`);
    }
  });

  it('replaces an inbound Forwarded header that is not RFC 7239 syntax instead of appending this hop inside it', () => {
    // Regression: `for="x` left a quoted string open, which swallowed the appended element, so an
    // upstream parser read the client's text (or nothing) where this hop's element belongs.
    for (const inbound of ['for="x', 'for="x\\', 'for=a b', 'for', 'a=b,"c"', 'for="a"b']) {
      const headers: IncomingHttpHeaders = { host: 'h', forwarded: inbound };
      setForwarded(headers, context());
      expect({ inbound, forwarded: headers.forwarded }).toEqual({
        inbound,
        forwarded: 'for=192.0.2.7;host="h";proto=http',
      });
    }
  });

  it('adds no Forwarded header when the client sent none', () => {
    const headers: IncomingHttpHeaders = { host: 'h' };
    setForwarded(headers, context());
    expect(headers.forwarded).toBeUndefined();
  });
});

describe('request ids', () => {
  it('keeps a well-formed inbound x-request-id', () => {
    expect(requestIdFrom({ 'x-request-id': 'abc-123_x.y:z' })).toBe('abc-123_x.y:z');
  });

  it('replaces an inbound id that is too long or carries unsafe characters', () => {
    for (const bad of ['x'.repeat(129), 'a b', 'a\nb', '<script>', '']) {
      expect(requestIdFrom({ 'x-request-id': bad })).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('generates one when absent and writes the chosen id', () => {
    const headers: IncomingHttpHeaders = {};
    setRequestId(headers, context({ requestId: requestIdFrom({}) }));
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the ordered request passes', () => {
  it('strips before setting, so forged identity copies never survive', () => {
    expect(STRIP_PASSES).toContain(isInboundIdentity);
    expect(SET_PASSES).toContain(injectIdentity);
    const inbound: IncomingHttpHeaders = {
      'x-tokengate-identity': 'client_id="forged"',
      'x-tokengate-jti': 'forged',
      authorization: 'Bearer abc',
      connection: 'close',
    };
    const out = forwardHeaders(inbound, context());
    expect(out[IDENTITY_HEADER]).toBeUndefined();
    expect(out['x-tokengate-jti']).toBeUndefined();
  });

  it('builds a new header object with identity, request id and Authorization kept for the upstream', () => {
    const inbound: IncomingHttpHeaders = {
      'x-tokengate-identity': 'client_id="forged"',
      authorization: 'Bearer abc',
      connection: 'close',
    };
    const out = forwardHeaders(inbound, context({ token }));
    expect(out).not.toBe(inbound);
    expect(inbound[IDENTITY_HEADER]).toBe('client_id="forged"');
    expect(out[IDENTITY_HEADER]).toMatch(/^client_id="client-1", /);
    expect(out.authorization).toBe('Bearer abc');
    expect(out.connection).toBeUndefined();
    expect(out['x-request-id']).toBe('req-1');
  });

  it("drops the client's X-Forwarded-Port and X-Real-IP, which would read as this hop's word", () => {
    const out = forwardHeaders(
      { host: 'h', 'x-forwarded-port': '443', 'x-real-ip': '10.0.0.1', accept: '*/*' },
      context(),
    );
    expect(out['x-forwarded-port']).toBeUndefined();
    expect(out['x-real-ip']).toBeUndefined();
    expect(out.accept).toBe('*/*');
  });
});
