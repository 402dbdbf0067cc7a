import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';

/**
 * A loopback HTTP load balancer in front of upstream replicas, as an operator would put nginx or
 * a cloud LB: round robin per request (no stickiness, so consecutive requests of one keep-alive
 * connection reach different replicas), an active health check (`GET /readyz` every
 * `probeIntervalMs`) and passive marking (a replica that refuses or drops a connection is skipped
 * until its health check answers 200 again). Like nginx's `proxy_next_upstream error`, a request
 * that could not be delivered (connection refused) goes to the next replica; one dropped after it
 * was sent is retried only when idempotent (GET, HEAD), otherwise answered 502.
 * Headers pass through as they are (a transparent hop, like an L4 balancer): the gateway's
 * X-Forwarded-For stays what the issuer reads.
 */
export interface HttpBalancer {
  readonly url: string;
  /** Requests each backend answered (a response started), in backend order; health checks not counted. */
  hits(): number[];
  /** Whether the balancer currently sends requests to backend `index`. */
  isUp(index: number): boolean;
  /** Requests answered 502 by the balancer itself (no backend could answer). */
  failures(): number;
  close(): Promise<void>;
}

export interface HttpBalancerOptions {
  probeIntervalMs?: number;
}

interface Backend {
  readonly host: string;
  readonly port: number;
  up: boolean;
  hits: number;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];

export async function startHttpBalancer(
  targets: readonly string[],
  options: HttpBalancerOptions = {},
): Promise<HttpBalancer> {
  const backends: Backend[] = targets.map((target) => {
    const url = new URL(target);
    return { host: url.hostname, port: Number(url.port), up: true, hits: 0 };
  });
  let turn = 0;
  let failures = 0;

  /** Backends in the order this request tries them: the next up ones round robin, then the down ones. */
  const order = (): Backend[] => {
    const start = turn++ % backends.length;
    const rotated = [...backends.slice(start), ...backends.slice(0, start)];
    return [...rotated.filter((b) => b.up), ...rotated.filter((b) => !b.up)];
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req).catch(() => undefined);
    if (body === undefined) return void res.destroy(); // the client went away mid-request
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    for (const backend of order()) {
      const outcome = await forward(backend, req, body, res);
      if (outcome === 'answered') return;
      backend.up = false;
      if (outcome === 'sent' && !idempotent) break;
    }
    failures += 1;
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('no upstream replica answered\n');
    else res.destroy();
  });
  // Long polls of the revocation feed stay open up to 30 s: no server-side timeout may cut them.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;

  const probe = () =>
    Promise.all(
      backends.map(async (backend) => {
        backend.up = await ready(backend);
      }),
    );
  await probe();
  const prober = setInterval(() => void probe(), options.probeIntervalMs ?? 200);
  prober.unref();

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('balancer has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    hits: () => backends.map((b) => b.hits),
    isUp: (index) => backends[index]?.up ?? false,
    failures: () => failures,
    close() {
      clearInterval(prober);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * 'answered': the backend's response is being relayed (from then on a failure cuts the client's
 * connection); 'refused': nothing reached the backend; 'sent': the connection failed after the
 * request went out, so the backend may have acted on it.
 */
function forward(
  backend: Backend,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
): Promise<'answered' | 'refused' | 'sent'> {
  return new Promise((resolve) => {
    let connected = false;
    const headers = withoutHopByHop(req.headers);
    if (body.length > 0) headers['content-length'] = String(body.length);
    const out = request({
      host: backend.host,
      port: backend.port,
      method: req.method,
      path: req.url,
      headers,
      agent: false,
    });
    out.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    out.on('response', (answer) => {
      backend.hits += 1;
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      answer.pipe(res);
      // The backend died mid-answer: cut the client's connection, as a proxy must.
      answer.on('close', () => answer.complete || res.destroy());
      resolve('answered');
    });
    out.on('error', () => resolve(connected ? 'sent' : 'refused'));
    // The client went away (a gateway stopping its long poll): stop waiting for the backend.
    res.on('close', () => out.destroy());
    out.end(body);
  });
}

function withoutHopByHop(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name)) out[name] = value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function ready(backend: Backend): Promise<boolean> {
  try {
    const res = await fetch(`http://${backend.host}:${backend.port}/readyz`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
