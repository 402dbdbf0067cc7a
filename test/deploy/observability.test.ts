import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayConfig } from '#gateway';
import { loadUpstreamConfig } from '#upstream';
import { freePort, type Stack, startStack, stopProcess, waitForReady } from '#test/stack.ts';

/**
 * The dashboard and the alert rules name series by hand: each must be one that a running gateway
 * or upstream serves, or a panel stays empty and an alert never fires, silently.
 */
const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}
interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}
interface Service {
  profiles?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}

const dashboard = JSON.parse(read('deploy/grafana/tokengate.json')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string }> };
};
const alerts = parse(read('deploy/prometheus/alerts.yml')) as { groups: Array<{ name: string; rules: Rule[] }> };
const rules = alerts.groups.flatMap((group) => group.rules);
const prometheus = parse(read('deploy/prometheus/prometheus.yml')) as {
  rule_files: string[];
  scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
};
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };

const exprs = [
  ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr)),
  ...rules.map((rule) => rule.expr),
];
/** Every series name an expression names (histogram suffixes kept: they are checked against the family). */
const named = [...new Set(exprs.flatMap((expr) => expr.match(/\btokengate_[a-z_]+/g) ?? []))].sort();

/** `# TYPE name kind` lines of a scrape. */
async function families(url: string): Promise<Map<string, string>> {
  const text = await (await fetch(url)).text();
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]));
}

describe('the Grafana dashboard and the Prometheus alert rules', () => {
  it('has a panel for each part of the issue: requests, decisions, verification, cache, key set, revocation, upstream, issuance', () => {
    const all = exprs.join('\n');
    for (const series of [
      'tokengate_gateway_requests_total',
      'tokengate_gateway_verification_seconds_bucket',
      'tokengate_gateway_token_cache_total',
      'tokengate_gateway_keyset_age_seconds',
      'tokengate_gateway_keyset_stale_served_total',
      'tokengate_gateway_revocation_lag_seconds',
      'tokengate_gateway_upstream_failures_total',
      'tokengate_upstream_token_requests_total',
    ])
      expect(all).toContain(series);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    expect(dashboard.templating.list.map((v) => v.name)).toContain('datasource');
  });

  it('alerts on a stale key set, a lagging revocation feed, failing closed, the 5xx ratio and token endpoint failures', () => {
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'TokengateKeySetStale',
        'TokengateRevocationFeedLagging',
        'TokengateFailClosed',
        'TokengateHigh5xxRatio',
        'TokengateTokenEndpointFailing',
      ]),
    );
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(0);
      // Balanced parentheses and braces: the cheapest syntax check without promtool.
      for (const [open, close] of ['()', '{}']) {
        const depth = [...rule.expr].reduce((d, c) => (d < 0 ? d : d + (c === open ? 1 : c === close ? -1 : 0)), 0);
        expect(depth, `${rule.alert} ${open}${close}`).toBe(0);
      }
    }
  });

  it('is scraped and loaded by the compose observability profile, from the ports the services listen on', () => {
    for (const name of ['prometheus', 'grafana']) expect(compose.services[name]?.profiles).toEqual(['observability']);
    const gatewayEnv = compose.services['gateway']?.environment ?? {};
    const upstreamEnv = compose.services['upstream']?.environment ?? {};
    // The metrics settings of each service (the rest of their environment is compose interpolation).
    const pick = (env: Record<string, string>, names: string[]) =>
      Object.fromEntries(names.map((name) => [name, env[name] ?? '']));
    const gateway = loadGatewayConfig(
      join(root, 'config', 'gateway.yaml'),
      pick(gatewayEnv, ['METRICS_HOST', 'METRICS_PORT']),
    );
    const upstream = loadUpstreamConfig(pick(upstreamEnv, ['UPSTREAM_METRICS_HOST', 'UPSTREAM_METRICS_PORT']));
    expect(gateway.metrics.host).toBe('0.0.0.0');
    expect(upstream.metrics.host).toBe('0.0.0.0');
    const targets = Object.fromEntries(
      prometheus.scrape_configs.map((job) => [job.job_name, job.static_configs.flatMap((c) => c.targets)]),
    );
    expect(targets).toEqual({
      'tokengate-gateway': [`gateway:${gateway.metrics.port}`],
      'tokengate-upstream': [`upstream:${upstream.metrics.port}`],
    });
    const mounts = (name: string) =>
      (compose.services[name]?.volumes ?? []).map((v) => {
        const [from, to] = v.split(':');
        return { from: from ?? '', to: to ?? '' };
      });
    for (const { from } of [...mounts('prometheus'), ...mounts('grafana')])
      expect(existsSync(join(root, from))).toBe(true);
    expect(mounts('prometheus').map((m) => m.to)).toEqual(
      expect.arrayContaining(['/etc/prometheus/prometheus.yml', ...prometheus.rule_files]),
    );
    const provider = parse(read('deploy/grafana/provisioning/dashboards/tokengate.yml')) as {
      providers: Array<{ options: { path: string } }>;
    };
    const dashboards = mounts('grafana').find((m) => m.to === provider.providers[0]?.options.path);
    expect(existsSync(join(root, dashboards?.from ?? '', 'tokengate.json'))).toBe(true);
    for (const port of [
      ...(compose.services['prometheus']?.ports ?? []),
      ...(compose.services['grafana']?.ports ?? []),
    ])
      expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  describe('against a running gateway and upstream', () => {
    let stack: Stack;
    let cluster: ChildProcess | undefined;
    let gateway: Map<string, string>;
    let clusterGateway: Map<string, string>;
    let upstream: Map<string, string>;
    beforeAll(async () => {
      const [metrics, upstreamMetrics, clusterPort, clusterMetrics] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      stack = await startStack({
        env: { METRICS_PORT: String(metrics), UPSTREAM_METRICS_PORT: String(upstreamMetrics), LOG_LEVEL: 'warn' },
      });
      // A second gateway on the same upstream, with 2 workers: its primary serves the sum over them,
      // and the tokengate_gateway_cluster_* series of the dashboard's cluster panel.
      cluster = spawn(process.execPath, [join(root, 'src', 'cli', 'main.ts'), 'gateway'], {
        env: {
          ...process.env,
          ...stack.env,
          PUBLIC_URL: stack.gatewayUrl,
          GATEWAY_PORT: String(clusterPort),
          METRICS_PORT: String(clusterMetrics),
          GATEWAY_WORKERS: '2',
        },
        stdio: 'ignore',
      });
      await waitForReady(`http://127.0.0.1:${clusterPort}`, 60_000);
      gateway = await families(`http://127.0.0.1:${metrics}/metrics`);
      clusterGateway = await families(`http://127.0.0.1:${clusterMetrics}/metrics`);
      upstream = await families(`http://127.0.0.1:${upstreamMetrics}/metrics`);
    }, 120_000);
    // Both at once, each bounded (SIGKILL after 10 s): a cluster slow to drain must not use up the
    // hook's time and leave the stack, or itself, running after the file.
    afterAll(async () => {
      await Promise.all([stopProcess(cluster), stack?.destroy()]);
    }, 30_000);

    /** Its kind in a scrape, a histogram's `_bucket`, `_sum` and `_count` found through their family. */
    function kindIn(source: Map<string, string>, series: string): string | undefined {
      const family = series.replace(/_(bucket|sum|count)$/, '');
      if (source.has(series)) return source.get(series);
      const kind = source.get(family);
      return series === family || kind === 'histogram' ? kind : undefined;
    }

    it('serves every series the dashboard and the alert rules name', () => {
      expect(named.length).toBeGreaterThan(15);
      for (const series of named) {
        if (series.startsWith('tokengate_gateway_cluster_')) {
          expect(kindIn(clusterGateway, series), `${series} (cluster)`).toBeDefined();
        } else if (series.startsWith('tokengate_gateway_')) {
          // The same panels serve a gateway of one process and a cluster's primary.
          expect(kindIn(gateway, series), series).toBeDefined();
          expect(kindIn(clusterGateway, series), `${series} (cluster)`).toBeDefined();
        } else expect(kindIn(upstream, series), series).toBeDefined();
      }
    });
  });
});
