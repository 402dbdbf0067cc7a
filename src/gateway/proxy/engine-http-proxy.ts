import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ProxyServer } from 'http-proxy-3';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { createUpstreamAgent, queuedRequest } from './agent.ts';
import { type UpstreamFailure, sendUpstreamFailure } from './failure.ts';
import type { Forwarder, ForwarderHooks } from './forwarder.ts';
import { relayBody, relayedTo, relayInformational } from './relay.ts';
import { responseHeaders } from './response-passes.ts';
import { type ForwardState, forwardState, setForwardState } from './state.ts';

/**
 * http-proxy-3 with a keep-alive agent. Connect and response timeouts are ours so a slow upstream
 * (504) is told apart from one that is down or unreachable (502); either way the client gets the documented
 * JSON body, never an HTML page or a reset, unless the reply had already started.
 */
export function createHttpProxyForwarder(upstream: GatewayConfig['upstream'], hooks: ForwarderHooks = {}): Forwarder {
  // The response timeout is the agent's socket timeout (set when a socket is made or reused), not
  // http-proxy-3's `proxyTimeout`, which arms and clears a socket timer on every request.
  const agent: Agent = createUpstreamAgent(upstream);
  // selfHandleResponse: the reply is written with one writeHead from the upstream's raw header
  // list (response-passes.ts) instead of http-proxy-3's per-header setHeader passes.
  // The target parsed once: http-proxy-3 parses a string target again on every request.
  const proxy = new ProxyServer({ target: new URL(upstream.url), agent, xfwd: false, selfHandleResponse: true });
  keepRequestFraming(proxy);

  // Emitted only for a request without `expect`, which the header passes strip (hop-by-hop.ts).
  proxy.on('proxyReq', (proxyReq, req, res, _options, socket) => {
    const state = forwardState(req);
    if (!state) return;
    // Answered while it waited in the agent's queue for a socket (413 mid-upload): sending it now
    // would only hold that socket with a request that never ends.
    if (state.answered) {
      proxyReq.destroy();
      return;
    }
    state.upstreamRequest = proxyReq;
    (proxyReq as WithState)[STATE] = state;
    // `on`, not `once`: no wrapper per request; a second timeout finds the request destroyed.
    proxyReq.on('timeout', onResponseTimeout);
    relayInformational(proxyReq, res);
    // Without an 'upgrade' listener Node drops the socket of a 101 reply and emits no response
    // and no error: the client would wait for ever.
    proxyReq.on('upgrade', onUnsolicitedUpgrade);
    if (socket.connecting) armConnectTimeout(proxyReq, socket, state, upstream.connectTimeoutMs);
  });
  proxy.on('proxyRes', (proxyRes, req, res) => {
    if (res.headersSent || res.writableEnded) {
      // Already answered here (413 mid-upload): the upstream's reply is moot.
      proxyRes.resume();
      return;
    }
    const status = proxyRes.statusCode ?? 0;
    // Node's client takes any three digits, and writeHead throws below 100: an upstream answering
    // `099` would end the process from inside a socket callback. RFC 9110 §15 ends at 599. Such a
    // reply is unusable: 502.
    if (status < 200 || status > 599) return void unusableReply(proxyRes, req, res);
    // The upstream answered before the whole request body arrived (and may have closed): the
    // rest of it would be read as the client's next request, so this connection ends with the reply.
    if (!req.complete) res.shouldKeepAlive = false;
    // The reason phrase is not relayed (RFC 9112 §4: clients ignore it), so Node sends the standard
    // one: writeHead throws on a control character in it, which Node's client lets through.
    res.writeHead(
      status,
      responseHeaders(proxyRes.rawHeaders, forwardState(req), req.httpVersion === '1.0', res.shouldKeepAlive),
    );
    relayBody(proxyRes, res);
  });
  proxy.on('econnreset', (_err, _req, res) => res.destroy());

  function onError(error: Error, req: IncomingMessage, res: ServerResponse | Socket): void {
    const state = forwardState(req);
    if (state?.answered) return;
    // Down (refused, reset, no connection within connectTimeoutMs) is 502; slow to answer is 504.
    const failure: UpstreamFailure = state?.timedOut === 'response' ? 'upstream_timeout' : 'upstream_unavailable';
    hooks.onUpstreamFailure?.(req, failure, error);
    if (!state || !('writeHead' in res)) {
      res.destroy();
      return;
    }
    sendUpstreamFailure(res, failure, state);
  }

  function unusableReply(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    proxyRes.destroy();
    const state = forwardState(req);
    onError(new Error(`upstream answered status ${proxyRes.statusCode}`), req, res);
    // The request's own error, when the destroyed socket reports it, must not touch the 502 sent.
    if (state) state.answered = true;
  }

  /** This gateway never asks the upstream to switch protocols (Upgrade is hop-by-hop, stripped): a 101 is unusable. */
  function onUnsolicitedUpgrade(this: ClientRequest, proxyRes: IncomingMessage, upstreamSocket: Socket): void {
    upstreamSocket.destroy();
    const res = relayedTo(this);
    if (res && !res.headersSent && !res.destroyed) unusableReply(proxyRes, res.req, res);
  }

  /**
   * A request still waiting for a socket after connectTimeoutMs gets 502, as a connection that
   * could not be made. Node's agent keeps a destroyed request queued and fails it only once a
   * socket comes free (which it then takes back), so the reply is sent here at once.
   */
  function boundQueueWait(queued: ClientRequest, req: IncomingMessage, res: ServerResponse, state: ForwardState): void {
    const ms = upstream.connectTimeoutMs;
    const timer = setTimeout(() => {
      if (queued.socket || queued.destroyed || state.answered) return;
      state.timedOut = 'connect';
      onError(new Error(`no upstream connection within ${ms} ms (all ${upstream.maxSockets} sockets busy)`), req, res);
      state.answered = true;
      queued.destroy();
    }, ms);
    queued.once('socket', () => clearTimeout(timer));
  }

  return {
    forward(req, res, state, body) {
      setForwardState(req, state);
      proxy.web(req, res, body ? { buffer: body as never } : hasBody(req) ? {} : NO_BODY, onError);
      const queued = queuedRequest(agent);
      if (queued !== undefined) boundQueueWait(queued, req, res, state);
    },
    close() {
      agent.destroy();
      proxy.close();
    },
  };
}

/**
 * http-proxy-3's `deleteLength` pass rewrites a DELETE or OPTIONS request's framing to
 * `content-length: 0` (dropping `transfer-encoding`) yet still streams its chunked body upstream,
 * where that body is read as further requests that never met our checks: request smuggling
 * (node-http-proxy #1720). Two passes of ours around it, added with http-proxy-3's public
 * `before` (its `after` inserts before the named pass too), put the framing back. A release that
 * renames either pass makes `before` throw: the gateway stops at start, not silently.
 */
function keepRequestFraming(proxy: ProxyServer): void {
  proxy.before('web', 'deleteLength', noteFraming);
  proxy.before('web', 'timeout', restoreFraming);
}

/** The passes run one after another within one `web` call, so one slot carries the value across. */
let framing: string | undefined;

function noteFraming(req: IncomingMessage): void {
  framing = req.headers['content-length'] === undefined ? req.headers['transfer-encoding'] : undefined;
}

function restoreFraming(req: IncomingMessage): void {
  if (framing === undefined) return;
  delete req.headers['content-length'];
  req.headers['transfer-encoding'] = framing;
  framing = undefined;
}

/**
 * RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no body. Its
 * upstream request is just ended, instead of piping the (already finished) request stream,
 * which costs a dozen listener additions and removals per request.
 */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
const NO_BODY = { buffer: { pipe: (dest: ClientRequest) => dest.end() } as never };

const STATE = Symbol('tokengate.forward');
type WithState = ClientRequest & { [STATE]?: ForwardState };

/** The upstream socket was idle for responseTimeoutMs mid-request: 504 (see onError). */
function onResponseTimeout(this: ClientRequest): void {
  const state = (this as WithState)[STATE];
  if (state) state.timedOut ??= 'response';
  this.destroy();
}

/** Exported for its unit test: a socket still connecting after `ms` fails the request (502, unreachable). */
export function armConnectTimeout(proxyReq: ClientRequest, socket: Socket, state: ForwardState, ms: number): void {
  const timer = setTimeout(() => {
    state.timedOut = 'connect';
    proxyReq.destroy();
  }, ms);
  const clear = () => clearTimeout(timer);
  socket.once('connect', clear);
  proxyReq.once('close', clear);
}
