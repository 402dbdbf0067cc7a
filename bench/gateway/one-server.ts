/**
 * Set-up shared by the scripts that measure one server at a time under a tool (instructions.ts:
 * callgrind; syscalls.ts: strace): the loopback upstream, the gateway's YAML, pre-minted tokens
 * per scenario, the load generator on core 0, and each scenario's server on core 1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, type LoadGenerator, startChild, startLoadGenerator } from './children.ts';
import { BEARER_PATH, gatewayYaml, PUBLIC_PATH } from './config.ts';
import type { LoadJob } from './loadgen.ts';
import { dpopClients } from './dpop.ts';
import { benchKey, mintTokens } from './mint.ts';

/**
 * plain: plain http-proxy-3; forwarder: the plain undici forwarder; public: the gateway's
 * `auth: none` route; one, cycle, fresh: bearer tokens as in gateway.bench.ts (a), (b), (c);
 * dpop, dpop-ed: cycle's traffic as DPoP calls with ES256 and EdDSA proofs (d); claims: "cycle"
 * on a route with one claim rule and two claim headers (issue 29).
 */
export type Scenario = 'plain' | 'forwarder' | 'public' | 'one' | 'cycle' | 'fresh' | 'dpop' | 'dpop-ed' | 'claims';
const ALL: Scenario[] = ['plain', 'forwarder', 'public', 'one', 'cycle', 'fresh', 'dpop', 'dpop-ed', 'claims'];
/** Tokens "cycle" goes round (each seen twice in a warm-up of at least 2 × CYCLED). */
export const CYCLED = 2_000;
/** The gateway's engine (CG_ENGINE, default the configuration's default, http-proxy-3). */
export const ENGINE = process.env.CG_ENGINE ?? 'http-proxy-3';

/** The scenarios named on the command line, or all of them. */
export function chosenScenarios(argv: string[]): Scenario[] {
  const chosen = argv.filter((s): s is Scenario => (ALL as string[]).includes(s));
  return chosen.length > 0 ? chosen : ALL;
}

export interface Bench {
  readonly dir: string;
  readonly load: LoadGenerator;
  /** Starts the scenario's server on core 1 (`wrapper` runs node under a tool). */
  start(scenario: Scenario, nodeFlags?: string[], wrapper?: string[]): Promise<Child>;
  /** `limit` requests of the scenario's kind on 4 connections. */
  job(scenario: Scenario, server: Child, limit: number): LoadJob;
  stop(): void;
}

/** `freshTokens`: never-seen tokens needed by the "fresh" scenario (warm-up and measured). */
export async function setUpBench(prefix: string, freshTokens: number): Promise<Bench> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const key = benchKey();
  const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
  const upstreamUrl = upstream.info.url ?? '';
  const config = join(dir, 'gateway.yaml');
  writeFileSync(config, gatewayYaml(upstreamUrl, upstream.info.feedToken ?? '', ENGINE));
  const claimsConfig = join(dir, 'gateway-claims.yaml');
  writeFileSync(claimsConfig, gatewayYaml(upstreamUrl, upstream.info.feedToken ?? '', ENGINE, undefined, true));
  const tokens = mintTokens(key, 1 + CYCLED + freshTokens);
  const file = (name: string, list: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, list.join('\n'));
    return path;
  };
  const files = {
    one: file('one.txt', tokens.slice(0, 1)),
    cycle: file('cycle.txt', tokens.slice(1, 1 + CYCLED)),
    fresh: file('fresh.txt', tokens.slice(1 + CYCLED)),
    dpop: file('dpop.json', [JSON.stringify(await dpopClients(key, 'ES256', CYCLED, 100, BEARER_PATH))]),
    'dpop-ed': file('dpop-ed.json', [JSON.stringify(await dpopClients(key, 'EdDSA', CYCLED, 100, BEARER_PATH))]),
  };
  const tokensFile = (scenario: Scenario) =>
    scenario === 'cycle' || scenario === 'claims'
      ? files.cycle
      : scenario === 'fresh' || scenario === 'dpop' || scenario === 'dpop-ed'
        ? files[scenario]
        : files.one;
  const load = await startLoadGenerator(0);
  return {
    dir,
    load,
    start: (scenario, nodeFlags = [], wrapper = []) =>
      scenario === 'plain' || scenario === 'forwarder'
        ? startChild(
            scenario === 'plain' ? 'plain-proxy.ts' : 'undici-proxy.ts',
            [upstreamUrl],
            1,
            process.env,
            nodeFlags,
            wrapper,
          )
        : startChild(
            'gateway-server.ts',
            [scenario === 'claims' ? claimsConfig : config],
            1,
            process.env,
            nodeFlags,
            wrapper,
          ),
    job: (scenario, server, limit) => ({
      label: scenario,
      url: `${server.info.url}${scenario === 'public' ? PUBLIC_PATH : BEARER_PATH}`,
      connections: 4,
      durationMs: 3_600_000,
      mode: scenario === 'fresh' ? 'fresh' : scenario.startsWith('dpop') ? 'dpop' : 'cycle',
      tokensFile: tokensFile(scenario),
      limit,
    }),
    stop: () => {
      load.stop();
      upstream.stop();
    },
  };
}
