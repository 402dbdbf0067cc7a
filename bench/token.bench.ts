/**
 * Token endpoint throughput next to the raw RS256 signing rate, measured in the same run.
 *
 * - raw: `crypto.sign('sha256', …)` with an imported 2048-bit RSA KeyObject over a token-sized
 *   input, in a tight loop on the main thread (one core).
 * - endpoint: the real issuer (embedded store, real client authentication, scope and lifetime
 *   rules, signing, JSON response, info logging to /dev/null) behind node:http on loopback; the
 *   server runs on the main thread (one core) while the load (16 keep-alive connections) comes
 *   from a worker thread, so the client's cost is not charged to the server's core.
 * Goal: endpoint ≥ 0.5 × raw.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { createIssuer } from '#issuer';
import { openStore } from '#store';

const DURATION_MS = Number(process.env.BENCH_MS ?? 4000);

function rawSignRate(): number {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = Buffer.from('x'.repeat(420));
  for (let i = 0; i < 200; i++) sign('sha256', input, privateKey);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < DURATION_MS) {
    sign('sha256', input, privateKey);
    count++;
  }
  return count / ((performance.now() - start) / 1000);
}

const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.connections });
const { port, body, ms, connections } = workerData;
let ok = 0, failed = 0, stop = false;
function request() {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/oauth/token', method: 'POST', agent,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => { res.statusCode === 200 ? ok++ : failed++; resolve(); });
    });
    req.on('error', () => { failed++; resolve(); });
    req.end(body);
  });
}
function one() {
  return stop ? Promise.resolve() : request().then(one);
}
(async () => {
  for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: connections }, request)); // warm-up
  ok = 0; failed = 0;
  const start = performance.now();
  setTimeout(() => { stop = true; }, ms);
  await Promise.all(Array.from({ length: connections }, one));
  parentPort.postMessage({ ok, failed, seconds: (performance.now() - start) / 1000 });
  agent.destroy();
})();
`;

async function endpointRate(): Promise<{ rate: number; failed: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tokengate-bench-'));
  const store = await openStore({ dataDir });
  const log = pino({ level: 'info' }, pino.destination('/dev/null'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = await createIssuer({
    store,
    log,
    config: {
      issuer: `http://127.0.0.1:${port}`,
      audience: `http://127.0.0.1:${port}`,
      algorithm: 'RS256',
      feedToken: 'bench-feed-token-0123456789',
    },
  });
  server.on('request', (req, res) => void issuer.handle(req, res));
  const project = await store.createProject({ name: 'bench', plan: 'business' });
  const { client, clientSecret } = await issuer.createClient({
    projectId: project.id,
    name: 'bench',
    scopes: ['address', 'phone', 'email'],
  });
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: clientSecret,
    scope: 'address email',
  }).toString();
  try {
    const result = await new Promise<{ ok: number; failed: number; seconds: number }>((resolve, reject) => {
      const worker = new Worker(LOAD, { eval: true, workerData: { port, body, ms: DURATION_MS, connections: 16 } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return { rate: result.ok / result.seconds, failed: result.failed };
  } finally {
    await issuer.close();
    server.closeAllConnections();
    server.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<void> {
  const raw = rawSignRate();
  const endpoint = await endpointRate();
  const rawAgain = rawSignRate();
  const rawMean = (raw + rawAgain) / 2;
  console.log(
    `raw RS256 crypto.sign (1 core)        : ${rawMean.toFixed(0)} signatures/s (runs: ${raw.toFixed(0)}, ${rawAgain.toFixed(0)})`,
  );
  console.log(
    `POST /oauth/token over loopback HTTP  : ${endpoint.rate.toFixed(0)} tokens/s (${endpoint.failed} failed)`,
  );
  console.log(`ratio endpoint / raw                  : ${(endpoint.rate / rawMean).toFixed(2)} (goal >= 0.5)`);
}

if (import.meta.main) await run();
