/**
 * The baseline: plain http-proxy-3, no auth, with the agent settings that did best here
 * (keep-alive, LIFO socket reuse, generous pool) and the target as a parsed URL, as the gateway
 * passes it (http-proxy-3 parses a string target again on every request).
 */
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProxyServer } from 'http-proxy-3';
import { announce, answerUsageProbes } from './probe.ts';

const target = process.argv[2] ?? '';
const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 256, scheduling: 'lifo' });
const proxy = new ProxyServer({ target: new URL(target), agent });
proxy.on('error', (_err, _req, res) => {
  if ('writeHead' in res && !res.headersSent) res.writeHead(502).end();
  else res.destroy();
});
const server = createServer((req, res) => proxy.web(req, res));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => announce({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
answerUsageProbes();
// A clean exit on SIGINT lets `--cpu-prof` write its profile when profiling this server.
process.once('SIGINT', () => process.exit(0));
