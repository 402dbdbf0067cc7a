import type { ClientRequest } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { GatewayConfig } from '../config/gateway-config.ts';

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
  restoreTimeoutOnReuse(agent, upstream.responseTimeoutMs);
  return agent;
}

/**
 * Node's agent gives a free socket the idle timeout of the upstream's `Keep-Alive: timeout=N` hint
 * (N − 1 s) and leaves it in place on reuse: a slow answer on a pooled socket would time out (504)
 * long before `responseTimeoutMs`. Set back when the socket is handed a request; new sockets start
 * with the agent's `timeout` and need nothing. `reuseSocket` is the hook Node documents for this.
 */
function restoreTimeoutOnReuse(agent: HttpAgent, ms: number): void {
  const reuseSocket = agent.reuseSocket;
  agent.reuseSocket = function (this: HttpAgent, socket: Duplex, req: ClientRequest): void {
    reuseSocket.call(this, socket, req);
    const pooled = socket as Socket;
    if (pooled.timeout !== ms) pooled.setTimeout(ms);
  };
}

/**
 * With all `maxSockets` busy, a request waits in the agent's queue, where no timer runs: behind an
 * upstream that holds every socket it would wait until sockets came free, one response timeout
 * after another. Read right after the request was made (through `agent.requests`, which Node
 * documents as readable), a non-empty queue holds it last: a queue forms only once every socket
 * is busy. Empty, as it is unless the upstream is saturated, it costs nothing more.
 */
export function queuedRequest(agent: HttpAgent): ClientRequest | undefined {
  for (const name in agent.requests) {
    const queue = agent.requests[name];
    if (queue !== undefined && queue.length > 0) return queue[queue.length - 1] as ClientRequest;
  }
  return undefined;
}
