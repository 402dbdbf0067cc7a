/**
 * The load generator (its own process, so it never shares a core's time with what it measures):
 * `connections` keep-alive connections each send a request, wait for the whole reply, and send
 * the next, for `durationMs` or until the tokens run out (mode "fresh"). Prints one JSON line:
 * requests, errors, non-2xx, elapsed, p50, p99.
 *
 * Raw sockets with pre-encoded requests, not node:http: the client's own HTTP work cost about
 * 60 µs a request, so on a two-core machine the load generator (sharing core 0 with the
 * upstream) ran out of CPU before the proxies did, and ratios measured the load generator.
 * Here a request costs the client a write and a header scan. Replies must carry a
 * Content-Length (the bench upstream's and every gateway reply do); anything else is an error.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';

interface Job {
  url: string;
  connections: number;
  durationMs: number;
  /** none: no Authorization; cycle: tokens round-robin; fresh: each token once. */
  mode: 'none' | 'cycle' | 'fresh';
  tokensFile?: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const target = new URL(job.url);
const head = `GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\naccept: application/json\r\n`;
const tokens: string[] = job.tokensFile ? readFileSync(job.tokensFile, 'utf8').split('\n').filter(Boolean) : [];
const requests: Buffer[] = job.mode === 'none' || tokens.length === 0 ? [Buffer.from(`${head}\r\n`, 'latin1')] : tokens.map((t) => Buffer.from(`${head}authorization: Bearer ${t}\r\n\r\n`, 'latin1'));

const latencies: number[] = [];
let next = 0;
let errors = 0;
let non2xx = 0;
const started = performance.now();
const deadline = started + job.durationMs;

function more(): boolean {
  return performance.now() < deadline && (job.mode !== 'fresh' || next < requests.length);
}

function nextRequest(): Buffer {
  return requests[job.mode === 'fresh' ? next++ : next++ % requests.length] as Buffer;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Content-Length of a header block (latin1), or -1. */
function contentLength(headers: string): number {
  const at = headers.search(/\r\ncontent-length:/i);
  if (at === -1) return -1;
  return Number.parseInt(headers.slice(at + 17, headers.indexOf('\r\n', at + 2)).trim(), 10);
}

function connection(): Promise<void> {
  return new Promise((resolve) => {
    let socket: Socket;
    let pending: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    let bodyLeft = -1;

    const send = () => {
      if (!more()) {
        socket.removeAllListeners('close');
        socket.destroy();
        resolve();
        return;
      }
      sentAt = performance.now();
      bodyLeft = -1;
      socket.write(nextRequest());
    };
    // An error or a close by the server mid-request: count it and carry on with a new connection.
    const fail = () => {
      errors++;
      socket.removeAllListeners('close');
      socket.destroy();
      if (more()) open();
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (bodyLeft === -1) {
        const end = pending.indexOf(CRLF2);
        if (end === -1) return;
        const headers = pending.toString('latin1', 0, end);
        const length = contentLength(headers);
        if (length < 0) return fail();
        const status = Number(headers.slice(9, 12));
        if (status >= 300) non2xx++;
        bodyLeft = length;
        pending = pending.subarray(end + 4);
      }
      if (pending.length < bodyLeft) return;
      if (pending.length > bodyLeft) return fail(); // no pipelining: nothing may follow the body
      pending = Buffer.alloc(0);
      latencies.push(performance.now() - sentAt);
      send();
    };
    const open = () => {
      socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      socket.on('connect', send);
      socket.on('data', onData);
      socket.on('error', () => undefined);
      socket.on('close', fail);
    };
    open();
  });
}

await Promise.all(Array.from({ length: job.connections }, connection));
const elapsedMs = performance.now() - started;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, non2xx, elapsedMs, p50: at(0.5), p99: at(0.99) })}\n`);
