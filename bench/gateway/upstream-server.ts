/**
 * The upstream every scenario shares: a minimal node:http JSON server, plus the key-set and
 * revocation-feed endpoints the gateway needs (a real long poll, as the issuer does).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce, answerUsageProbes } from './probe.ts';

const jwks = process.argv[2] ?? '{"keys":[]}';
const FEED_TOKEN = 'bench-feed-token';
const POLICY = '{"projects":[],"api_keys":[]}';
const POLICY_ETAG = '"bench-policy"';
const body = JSON.stringify({ ok: true, completions: ['1 George St, Sydney NSW 2000'] });

const server = createServer((req, res) => {
  if (req.url === '/.well-known/jwks.json') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }).end(jwks);
    return;
  }
  if (req.url?.startsWith('/internal/revocations')) {
    const first = req.url.includes('wait=0');
    const reply = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"cursor":0,"entries":[]}');
    if (first) reply();
    else setTimeout(reply, 20_000).unref();
    return;
  }
  // A gateway with rate limits polls the policy feed (nothing configured: 304 once it has it) and reports usage.
  if (req.url === '/internal/rate-limits') {
    if (req.headers['if-none-match'] === POLICY_ETAG) res.writeHead(304, { etag: POLICY_ETAG }).end();
    else res.writeHead(200, { 'content-type': 'application/json', etag: POLICY_ETAG }).end(POLICY);
    return;
  }
  if (req.url === '/internal/usage') {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  announce({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, feedToken: FEED_TOKEN });
});
answerUsageProbes();
