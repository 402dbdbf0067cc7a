/**
 * A forward-auth decision's cost against a proxied request (not part of `npm run bench`):
 * `npx node bench/gateway/forward-auth-ab.ts [rounds]` runs two gateways of this tree side by side
 * on the bench upstream, pinned to core 1: one proxying the bearer route, one answering decisions
 * for it (`forwardAuth` in Envoy's shape: the original path after `/ext-authz`, so the load
 * generator's requests need no extra header). Same 10,000 tokens cycled, 16 connections. Slices
 * interleave (order reversed every other round); each prints CPU µs/request and requests/s, then
 * the medians and the decision's CPU as a share of the proxied request's. The proxy's own work
 * (NGINX, Envoy) is not counted: only the gateway's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import { type Figures, interleave, median } from './interleaved.ts';
import { BEARER_PATH, gatewayYaml } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const PREFIX = '/ext-authz';
const rounds = Number(process.argv[2] ?? 9);
const dir = mkdtempSync(join(tmpdir(), 'tg-forward-auth-ab-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const tokensFile = join(dir, 'tokens.txt');
writeFileSync(tokensFile, mintTokens(key, 10_000).join('\n'));
const configFor = (name: string, extra: string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, extra + gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? ''));
  return path;
};
const decision = 'forwardAuth: { proxy: envoy, trustedProxies: [127.0.0.1], pathPrefix: /ext-authz }\n';
const servers = {
  proxied: { child: await startChild('gateway-server.ts', [configFor('proxied', '')], 1), path: BEARER_PATH },
  decision: {
    child: await startChild('gateway-server.ts', [configFor('decision', decision)], 1),
    path: PREFIX + BEARER_PATH,
  },
};
const load = await startLoadGenerator(0);
const contenders = Object.fromEntries(
  Object.entries(servers).map(([name, s]) => [name, { child: s.child, url: `${s.child.info.url}${s.path}` }]),
);
const figures = await interleave(load, contenders, { label: 'forward-auth', tokensFile, rounds });
const base = figures['proxied'] as Figures;
for (const [name, f] of Object.entries(figures))
  console.log(
    `${name.padEnd(9)} CPU median ${median(f.cpu).toFixed(1)} µs/req (min ${Math.min(...f.cpu).toFixed(1)}), ` +
      `${median(f.rps).toFixed(0)} req/s; CPU vs proxied: ${(median(f.cpu) / median(base.cpu)).toFixed(3)}x; ` +
      `non-2xx ${f.non2xx}`,
  );
for (const s of [upstream, ...Object.values(servers).map((s) => s.child), load]) s.stop();
