/**
 * The undici baseline: node:http in front, one undici `Pool` to the upstream (keep-alive, no
 * pipelining), `Pool.stream` writing the reply straight into the client's response, no auth and
 * no header passes beyond dropping the hop-by-hop ones. The ceiling a Node gateway on undici
 * can approach.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { announce, answerUsageProbes } from './probe.ts';

const target = new URL(process.argv[2] ?? '');
const pool = new Pool(target.origin, { connections: 1_024, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function passed(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

const server = createServer((req, res) => {
  const bodyless = req.method === 'GET' || req.method === 'HEAD';
  pool.stream(
    {
      path: req.url ?? '/',
      method: (req.method ?? 'GET') as 'GET',
      headers: passed(req.headers),
      body: bodyless ? null : req,
      opaque: res,
    },
    ({ statusCode, headers, opaque }) => {
      const reply = opaque as typeof res;
      reply.writeHead(statusCode, passed(headers));
      return reply;
    },
    (error) => {
      if (!error) return;
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => announce({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
answerUsageProbes();
process.once('SIGINT', () => process.exit(0));
