/**
 * The load generator, a long-lived child (its own process, pinned to the core it shares with the
 * upstream, never the measured server's). The orchestrator sends it slices over IPC:
 * `{type:'run', id, job}` → `connections` keep-alive connections each send a request, wait for
 * the whole reply and send the next, for `durationMs` or until the tokens run out (mode
 * "fresh"); it answers `{type:'result', id, requests, errors, non2xx, elapsedMs, p50, p99}`,
 * where p50/p99 cover every slice run so far under the job's `label`. Connections and token
 * cursors persist across slices, so slices can be short and finely interleaved.
 *
 * Raw sockets with pre-encoded requests, not node:http: the client's own HTTP work cost about
 * 60 µs a request, so on a two-core machine the load generator (sharing core 0 with the
 * upstream) ran out of CPU before the proxies did, and ratios measured the load generator.
 * Here a request costs the client a write and a header scan. Replies must carry a
 * Content-Length (the bench upstream's and every gateway reply do); anything else is an error.
 *
 * Mode "dpop" signs a fresh DPoP proof for each request of a slice before the slice's clock
 * starts (dpop.ts), so signing costs neither the measured server nor the slice's time.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { type ProofBatcher, proofBatcher } from './dpop.ts';

export interface LoadJob {
  /** Groups slices for the latency percentiles. */
  label: string;
  url: string;
  connections: number;
  durationMs: number;
  /**
   * none: no Authorization; cycle: tokens round-robin; fresh: each token once, ever; dpop:
   * `tokensFile` is a DpopClients JSON file, its tokens round-robin, each request with its own proof.
   */
  mode: 'none' | 'cycle' | 'fresh' | 'dpop';
  tokensFile?: string;
  /** Stop after this many requests (default: none). */
  limit?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  non2xx: number;
  elapsedMs: number;
  /** Over every slice of this label so far (ms). */
  p50: number;
  p99: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Pre-encoded requests of one tokens file and URL, with a cursor that persists across slices. */
interface RequestSet {
  readonly buffers: Buffer[];
  next: number;
}

const requestSets = new Map<string, RequestSet>();

const head = (target: URL) =>
  `GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\naccept: application/json\r\n`;

function requestsFor(job: LoadJob): RequestSet {
  const key = `${job.url} ${job.mode} ${job.tokensFile ?? ''}`;
  let set = requestSets.get(key);
  if (set === undefined) {
    const start = head(new URL(job.url));
    const tokens = job.tokensFile ? readFileSync(job.tokensFile, 'utf8').split('\n').filter(Boolean) : [];
    const buffers =
      job.mode === 'none' || tokens.length === 0
        ? [Buffer.from(`${start}\r\n`, 'latin1')]
        : tokens.map((t) => Buffer.from(`${start}authorization: Bearer ${t}\r\n\r\n`, 'latin1'));
    set = { buffers, next: 0 };
    requestSets.set(key, set);
  }
  return set;
}

const batchers = new Map<string, ProofBatcher>();
/** Each DPoP URL's best requests/s so far: a slice's batch is twice that (12,000/s before the first). */
const peaks = new Map<string, number>();
const MIN_DPOP_RATE = 2_000;

/** A slice's worth of DPoP requests, each proof signed now and sent once. */
function dpopRequestsFor(job: LoadJob): RequestSet {
  const file = job.tokensFile ?? '';
  let batcher = batchers.get(file);
  if (batcher === undefined) {
    batcher = proofBatcher(file);
    batchers.set(file, batcher);
  }
  const rate = Math.max(MIN_DPOP_RATE, 2 * (peaks.get(job.url) ?? 6_000));
  const count = Math.min(job.limit ?? Number.POSITIVE_INFINITY, Math.ceil((job.durationMs / 1000) * rate));
  return { buffers: batcher.batch(head(new URL(job.url)), count), next: 0 };
}

/** One keep-alive connection; `exchange` sends a request and resolves with the reply's status. */
class Connection {
  private socket: Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private bodyLeft = -1;
  private status = 0;
  private waiter: ((status: number) => void) | undefined;

  private readonly target: URL;

  constructor(target: URL) {
    this.target = target;
  }

  exchange(request: Buffer): Promise<number> {
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.pending = Buffer.alloc(0);
      this.bodyLeft = -1;
      const socket = this.socket ?? this.open();
      socket.write(request);
    });
  }

  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }

  private open(): Socket {
    const socket = connect({ host: this.target.hostname, port: Number(this.target.port), noDelay: true });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      // A socket closed on purpose (close()) has no request of its own waiting.
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.settle(-1);
    });
    this.socket = socket;
    return socket;
  }

  private settle(status: number): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(status);
  }

  private onData(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    if (this.bodyLeft === -1) {
      const end = this.pending.indexOf(CRLF2);
      if (end === -1) return;
      const headers = this.pending.toString('latin1', 0, end);
      const at = headers.search(/\r\ncontent-length:/i);
      if (at === -1) {
        this.fail();
        return;
      }
      this.bodyLeft = Number.parseInt(headers.slice(at + 17, headers.indexOf('\r\n', at + 2)).trim(), 10);
      this.status = Number(headers.slice(9, 12));
      this.pending = this.pending.subarray(end + 4);
    }
    if (this.pending.length < this.bodyLeft) return;
    // No pipelining: nothing may follow the body.
    if (this.pending.length > this.bodyLeft) {
      this.fail();
      return;
    }
    this.pending = Buffer.alloc(0);
    this.bodyLeft = -1;
    this.settle(this.status);
  }

  private fail(): void {
    this.socket?.destroy();
  }
}

const pools = new Map<string, Connection[]>();
/**
 * A pool idle this long is reconnected before its next slice: servers close keep-alive
 * connections idle for 5 s (Node's default, the gateway's `keepAliveTimeoutMs`), and a request
 * written as the server closes its end fails. DPoP slices wait longest (their proofs are signed
 * between slices): a close racing a write is the likely cause of the DPoP rows' failed requests.
 */
const IDLE_RECONNECT_MS = 3_000;
const lastUsed = new Map<string, number>();
const latencies = new Map<string, number[]>();

async function run(job: LoadJob): Promise<LoadResult> {
  const target = new URL(job.url);
  let pool = pools.get(job.url);
  if (pool === undefined) {
    pool = [];
    pools.set(job.url, pool);
  }
  while (pool.length < job.connections) pool.push(new Connection(target));
  if (performance.now() - (lastUsed.get(job.url) ?? 0) > IDLE_RECONNECT_MS) for (const c of pool) c.close();
  const set = job.mode === 'dpop' ? dpopRequestsFor(job) : requestsFor(job);
  const once = job.mode === 'fresh' || job.mode === 'dpop';
  const seen = latencies.get(job.label) ?? [];
  latencies.set(job.label, seen);
  let sent = 0;
  let requests = 0;
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  const deadline = started + job.durationMs;
  const limit = job.limit ?? Number.POSITIVE_INFINITY;
  const more = () => sent < limit && performance.now() < deadline && (!once || set.next < set.buffers.length);
  const worker = async (connection: Connection) => {
    while (more()) {
      const request = set.buffers[once ? set.next++ : set.next++ % set.buffers.length] as Buffer;
      sent++;
      const sentAt = performance.now();
      const status = await connection.exchange(request);
      if (status === -1) {
        errors++;
        continue;
      }
      requests++;
      if (status >= 300) non2xx++;
      seen.push(performance.now() - sentAt);
    }
  };
  await Promise.all(pool.slice(0, job.connections).map(worker));
  lastUsed.set(job.url, performance.now());
  const elapsedMs = performance.now() - started;
  if (job.mode === 'dpop' && job.limit === undefined)
    peaks.set(job.url, Math.max(peaks.get(job.url) ?? 0, (requests / elapsedMs) * 1000));
  const sorted = seen.toSorted((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { requests, errors, non2xx, elapsedMs, p50: at(0.5), p99: at(0.99) };
}

process.on('message', (message: { type?: string; id?: number; job?: LoadJob }) => {
  if (message.type === 'run' && message.job) {
    void run(message.job).then((result) => process.send?.({ type: 'result', id: message.id, ...result }));
  } else if (message.type === 'close') {
    for (const pool of pools.values()) for (const connection of pool) connection.close();
    process.disconnect();
  }
});
process.send?.({ type: 'ready' });
