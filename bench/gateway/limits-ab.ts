/**
 * The rate limiter's cost on the hot path (not part of `npm run bench`): `npx node
 * bench/gateway/limits-ab.ts [rounds]` runs three gateways of this tree side by side on the bench
 * upstream, the same bearer route, 10,000 tokens of 500 clients of one project cycled: without
 * rate limits, with them in process, and with them in Redis (BENCH_REDIS_URL, default the local
 * 127.0.0.1:6379). Every call takes a token of all three counters (client, project, monthly
 * quota); the limits never refuse. Slices interleave (order reversed every other round), and each
 * prints CPU µs/request and requests/s, then the medians and their ratios to the gateway without.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import { type Figures, interleave, median } from './interleaved.ts';
import { BEARER_PATH, gatewayYaml, type LimitsStore } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const rounds = Number(process.argv[2] ?? 9);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dir = mkdtempSync(join(tmpdir(), 'tg-limits-ab-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const tokensFile = join(dir, 'tokens.txt');
writeFileSync(tokensFile, mintTokens(key, 10_000).join('\n'));
const configFor = (name: string, limits?: LimitsStore) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '', 'http-proxy-3', limits));
  return path;
};
const servers = {
  'no limits': await startChild('gateway-server.ts', [configFor('off')], 1),
  'limits in process': await startChild('gateway-server.ts', [configFor('memory', { kind: 'memory' })], 1),
  'limits in Redis': await startChild(
    'gateway-server.ts',
    [configFor('redis', { kind: 'redis', url: redisUrl, prefix: `tg-bench-${randomUUID()}:` })],
    1,
  ),
};
const load = await startLoadGenerator(0);
const contenders = Object.fromEntries(
  Object.entries(servers).map(([name, child]) => [name, { child, url: `${child.info.url ?? ''}${BEARER_PATH}` }]),
);
const figures = await interleave(load, contenders, { label: 'limits', tokensFile, rounds });
const base = figures['no limits'] as Figures;
for (const [name, f] of Object.entries(figures))
  console.log(
    `${name.padEnd(18)} CPU median ${median(f.cpu).toFixed(1)} µs/req (min ${Math.min(...f.cpu).toFixed(1)}), ` +
      `${median(f.rps).toFixed(0)} req/s; vs no limits: ${(median(base.cpu) / median(f.cpu)).toFixed(3)}x by CPU, ` +
      `${(median(f.rps) / median(base.rps)).toFixed(3)}x by req/s; non-2xx ${f.non2xx}`,
  );
for (const s of [upstream, ...Object.values(servers), load]) s.stop();
