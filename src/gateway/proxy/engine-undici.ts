import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { type UpstreamFailure, sendUpstreamFailure } from './failure.ts';
import type { Forwarder, ForwarderHooks } from './forwarder.ts';
import { sendInformational } from './relay.ts';
import { responseHeaders } from './response-passes.ts';
import { type ForwardState, setForwardState, type UpstreamRequest } from './state.ts';

type Controller = Dispatcher.DispatchController;

/** undici's codes for an upstream that went silent past `responseTimeoutMs`: 504, everything else is 502. */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The undici engine: one `Pool` per upstream origin (keep-alive, no pipelining), driven through
 * `dispatch` with one handler object per request. It skips what makes Node's client costly
 * (`ClientRequest`, the agent's socket bookkeeping, per-header validation and events): see
 * docs/performance.md for the figures.
 *
 * Timeouts: undici's `connectTimeout` bounds a new connection's connect, and its headers and
 * body timeouts (both `responseTimeoutMs`) the upstream's silence before its head and between
 * chunks of its body. The wait for a free connection when all `maxSockets` are busy is bounded
 * here, by a timer armed only when the pool reports itself saturated.
 */
export function createUndiciForwarder(upstream: GatewayConfig['upstream'], hooks: ForwarderHooks = {}): Forwarder {
  const target = new URL(upstream.url);
  // As http-proxy-3 joins them: the upstream URL's path goes in front of the request's.
  const base = target.pathname === '/' ? '' : target.pathname.replace(/\/+$/, '');
  const pool = new Pool(target.origin, {
    connections: upstream.maxSockets,
    pipelining: 1,
    connectTimeout: upstream.connectTimeoutMs,
    headersTimeout: upstream.responseTimeoutMs,
    bodyTimeout: upstream.responseTimeoutMs,
  });
  const engine: Engine = { hooks, connectTimeoutMs: upstream.connectTimeoutMs };

  return {
    forward(req, res, state, body) {
      setForwardState(req, state);
      const exchange = new Exchange(engine, req, res, state);
      state.upstreamRequest = exchange;
      (res as Relaying)[EXCHANGE] = exchange;
      res.on('close', onClientClose);
      const options: Dispatcher.DispatchOptions = {
        path: base + (req.url ?? '/'),
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: upstreamHeaders(req.headers),
        body: body ? (body as NodeJS.ReadableStream as never) : hasBody(req) ? req : null,
      };
      const free = pool.dispatch(options, exchange);
      // Saturated: the request may wait in the pool's queue, where no timer of undici's runs.
      if (!free && exchange.controller === undefined) exchange.armQueueTimeout();
    },
    close() {
      pool.destroy().catch(() => undefined);
    },
  };
}

interface Engine {
  readonly hooks: ForwarderHooks;
  readonly connectTimeoutMs: number;
}

const EXCHANGE = Symbol('tokengate.exchange');
type Relaying = ServerResponse & { [EXCHANGE]?: Exchange };

/** The client went away before its reply was complete: the upstream request is cancelled. */
function onClientClose(this: ServerResponse): void {
  if (!this.writableFinished) (this as Relaying)[EXCHANGE]?.destroy();
}

class Cancelled extends Error {
  override readonly name = 'Cancelled';
}

/** One forwarded request: undici's handler for it, and the gateway's way to cancel it. */
class Exchange implements Dispatcher.DispatchHandler, UpstreamRequest {
  controller: Controller | undefined;
  private queueTimer: NodeJS.Timeout | undefined;
  /** Cancelled by the gateway or given up here: whatever undici reports after is moot. */
  private done = false;

  private readonly engine: Engine;
  private readonly req: IncomingMessage;
  private readonly res: ServerResponse;
  private readonly state: ForwardState;

  constructor(engine: Engine, req: IncomingMessage, res: ServerResponse, state: ForwardState) {
    this.engine = engine;
    this.req = req;
    this.res = res;
    this.state = state;
  }

  /** UpstreamRequest: cancels the request, queued or under way (drain, 413, client gone). */
  destroy(): void {
    this.done = true;
    if (this.queueTimer !== undefined) clearTimeout(this.queueTimer);
    this.controller?.abort(new Cancelled('upstream request cancelled'));
  }

  armQueueTimeout(): void {
    const ms = this.engine.connectTimeoutMs;
    this.queueTimer = setTimeout(() => {
      this.queueTimer = undefined;
      if (this.done || this.controller !== undefined) return;
      this.state.timedOut = 'connect';
      const error = Object.assign(new Error(`no upstream connection within ${ms} ms (all sockets busy)`), {
        code: 'EUPSTREAMQUEUE',
      });
      this.fail(error);
      // Still in the pool's queue: dropped when it gets a connection (onRequestStart).
      this.done = true;
    }, ms);
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.queueTimer !== undefined) {
      clearTimeout(this.queueTimer);
      this.queueTimer = undefined;
    }
    // Answered while it waited for a connection (413 mid-upload, drain, queue timeout): sending
    // it now would only hold that connection with a request nobody waits for.
    if (this.done || this.state.answered) controller.abort(new Cancelled('answered before it was sent'));
  }

  onResponseStart(controller: Controller, status: number, headers: IncomingHttpHeaders): void {
    const res = this.res;
    // undici takes any three digits, and writeHead throws below 100; RFC 9110 §15 ends at 599.
    if (status < 100 || status > 599) {
      controller.abort(new Error(`upstream answered status ${status}`));
      return;
    }
    // 102 and 103 (100 is refused by undici, 101 unasked is an error: both end as 502).
    if (status < 200) return void sendInformational(res, status, headers);
    if (res.headersSent || res.writableEnded) {
      // Already answered here (413 mid-upload): the upstream's reply is moot.
      this.done = true;
      controller.abort(new Cancelled('already answered'));
      return;
    }
    // The upstream answered before the whole request body arrived: the rest of it would be read
    // as the client's next request, so this connection ends with the reply.
    if (!this.req.complete) res.shouldKeepAlive = false;
    // No reason phrase relayed: Node sends the standard one (see the http-proxy-3 engine).
    res.writeHead(
      status,
      responseHeaders(flat(headers), this.state, this.req.httpVersion === '1.0', res.shouldKeepAlive),
    );
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const res = this.res;
    if (res.write(chunk) || res.destroyed) return;
    // The client reads slower than the upstream sends: hold the upstream back until it drains.
    controller.pause();
    res.once('drain', () => controller.resume());
  }

  onResponseEnd(): void {
    this.res.end();
  }

  onResponseError(_controller: Controller, error: Error): void {
    if (this.queueTimer !== undefined) clearTimeout(this.queueTimer);
    if (this.done || this.state.answered || this.res.destroyed) return;
    this.done = true;
    this.fail(error);
  }

  /** 502, or 504 for an upstream that went silent; a reply already started is cut (failure.ts). */
  private fail(error: Error): void {
    const code = (error as { code?: string }).code;
    if (code !== undefined && TIMEOUTS.has(code)) this.state.timedOut ??= 'response';
    const failure: UpstreamFailure = this.state.timedOut === 'response' ? 'upstream_timeout' : 'upstream_unavailable';
    this.engine.hooks.onUpstreamFailure?.(this.req, failure, error);
    sendUpstreamFailure(this.res, failure, this.state);
  }
}

/**
 * The passed request headers as undici takes them. `transfer-encoding` is undici's to write: it
 * frames a body of unknown length as chunked itself, and refuses the header.
 */
function upstreamHeaders(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name === 'transfer-encoding') continue;
    if (typeof value === 'string') out.push(name, value);
    else for (const one of value) out.push(name, one);
  }
  return out;
}

/** undici's parsed reply head (repeated names as arrays) as a flat name, value list. */
function flat(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') out.push(name, value);
    else if (value !== undefined) for (const one of value) out.push(name, one);
  }
  return out;
}

/** RFC 9112 §6.3: neither Content-Length nor Transfer-Encoding: no body. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
