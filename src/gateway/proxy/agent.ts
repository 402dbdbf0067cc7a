import type { ClientRequest } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { GatewayConfig } from '../config/schema.ts';

/**
 * Keep-alive agent to the upstream. LIFO scheduling reuses the most recently used (warmest)
 * socket, so idle ones can time out instead of all being kept barely alive.
 */
export function createUpstreamAgent(upstream: GatewayConfig['upstream']): HttpAgent {
  const options = {
    // Socket idle timeout: a request without upstream activity this long fails as 504
    // (engine-http-proxy.ts); an idle pooled socket this old is closed.
    timeout: upstream.responseTimeoutMs,
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: upstream.maxSockets,
    maxFreeSockets: upstream.keepAliveSockets,
    scheduling: 'lifo' as const,
  };
  const agent = upstream.url.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options);
  boundQueueWait(agent as QueueingAgent, upstream.connectTimeoutMs);
  restoreTimeoutOnReuse(agent, upstream.responseTimeoutMs);
  return agent;
}

/**
 * Node's agent gives a free socket the idle timeout of the upstream's `Keep-Alive: timeout=N` hint
 * (N − 1 s) and leaves it in place on reuse: a slow answer on a pooled socket would time out (504)
 * long before `responseTimeoutMs`. Set back when the socket is handed a request; new sockets start
 * with the agent's `timeout` and need nothing.
 */
function restoreTimeoutOnReuse(agent: HttpAgent, ms: number): void {
  const reuseSocket = agent.reuseSocket;
  agent.reuseSocket = function (this: HttpAgent, socket: Duplex, req: ClientRequest): void {
    reuseSocket.call(this, socket, req);
    const pooled = socket as Socket;
    if (pooled.timeout !== ms) pooled.setTimeout(ms);
  };
}

/** The part of Node's Agent this module relies on: `addRequest` is how ClientRequest asks for a socket. */
interface QueueingAgent extends HttpAgent {
  addRequest(req: ClientRequest, options: object): void;
}

/**
 * With all `maxSockets` busy, a request waits in the agent's queue, where no timer runs: behind an
 * upstream that holds every socket it would wait until sockets came free, one response timeout
 * after another. Getting a connection, new or pooled, is bounded by `connectTimeoutMs`; a request
 * still queued then leaves the queue and fails as a connection that could not be made (502). It
 * is failed through `onSocket`, the path Node's agent itself takes when a socket cannot be created.
 */
function boundQueueWait(agent: QueueingAgent, ms: number): void {
  const addRequest = agent.addRequest;
  agent.addRequest = function (this: QueueingAgent, req: ClientRequest, options: object): void {
    addRequest.call(this, req, options);
    // Node's agent deletes a queue once it empties, so this loop runs only while requests wait
    // (one upstream: one queue). A queued request was pushed last.
    for (const name in this.requests) {
      const queue = this.requests[name];
      if (queue !== undefined && queue[queue.length - 1] === req) {
        armQueueTimeout(this, name, req, ms);
        return;
      }
    }
  };
}

function armQueueTimeout(agent: QueueingAgent, name: string, req: ClientRequest, ms: number): void {
  const timer = setTimeout(() => {
    // Node documents `requests` as not to be modified; this agent owns its queue, and Node's
    // agent leaves a queued request there until a socket comes free, even once it is destroyed.
    const requests = agent.requests as Record<string, ClientRequest[] | undefined>;
    const waiting = requests[name];
    const at = waiting ? waiting.indexOf(req) : -1;
    if (waiting === undefined || at < 0) return;
    waiting.splice(at, 1);
    if (waiting.length === 0) delete requests[name];
    // Given up by the client meanwhile: leaving the queue is all that is left to do.
    if (req.destroyed) return;
    const error = Object.assign(
      new Error(`no upstream connection within ${ms} ms (all ${agent.maxSockets} sockets busy)`),
      { code: 'EUPSTREAMQUEUE' },
    );
    (req as ClientRequest & { onSocket(socket: undefined, err: Error): void }).onSocket(undefined, error);
  }, ms);
  req.once('socket', () => clearTimeout(timer));
}
