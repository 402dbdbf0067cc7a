/**
 * The load generator (its own process, so it never shares a core's time with what it measures):
 * `connections` keep-alive connections each issue requests back to back, for `durationMs` or
 * until `tokens` run out (mode "fresh"). Prints one JSON line: requests, errors, elapsed, p50, p99.
 */
import { Agent, request } from 'node:http';
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
const tokens: string[] = job.tokensFile ? readFileSync(job.tokensFile, 'utf8').split('\n').filter(Boolean) : [];
const target = new URL(job.url);
const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
const latencies: number[] = [];
let next = 0;
let errors = 0;
let non2xx = 0;
const started = performance.now();
const deadline = started + job.durationMs;

function headers(): Record<string, string> {
  if (job.mode === 'none') return {};
  const token = job.mode === 'cycle' ? tokens[next++ % tokens.length] : tokens[next++];
  return { authorization: `Bearer ${token}` };
}

function more(): boolean {
  return performance.now() < deadline && (job.mode !== 'fresh' || next < tokens.length);
}

function one(): Promise<void> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, agent, headers: headers() }, (res) => {
      if ((res.statusCode ?? 0) >= 300) non2xx++;
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - t0);
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });
}

async function worker(): Promise<void> {
  while (more()) await one();
}

await Promise.all(Array.from({ length: job.connections }, worker));
const elapsedMs = performance.now() - started;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, non2xx, elapsedMs, p50: at(0.5), p99: at(0.99) })}\n`);
agent.destroy();
