import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadUpstreamConfig } from '#upstream';
import { parseGatewayConfig } from '../../src/gateway/config/load.ts';

/**
 * No cluster is reachable here: every manifest is validated against the Kubernetes API schemas
 * (kubernetes-models, generated from Kubernetes' OpenAPI), and every reference between them
 * (ports, labels, selectors, Secret keys, ConfigMap keys) is followed by hand.
 */
const dir = join(import.meta.dirname, '..', '..', 'deploy', 'kubernetes');
const root = join(import.meta.dirname, '..', '..');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}
interface Kustomization {
  namespace: string;
  resources: string[];
  secretGenerator: Array<{ name: string; envs: string[] }>;
  images: Array<{ name: string }>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Port {
  name: string;
  containerPort: number;
}
interface Probe {
  httpGet: { path: string; port: string };
}
interface Container {
  name: string;
  image: string;
  args: string[];
  ports: Port[];
  env: EnvVar[];
  volumeMounts: Array<{ name: string; mountPath: string }>;
  readinessProbe: Probe;
  livenessProbe: Probe;
  lifecycle: { preStop: { exec: { command: string[] } } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: {
    allowPrivilegeEscalation: boolean;
    readOnlyRootFilesystem: boolean;
    capabilities: { drop: string[] };
  };
}
interface PodSpec {
  terminationGracePeriodSeconds: number;
  securityContext: { runAsNonRoot: boolean; runAsUser: number };
  containers: Container[];
  volumes: Array<{ name: string; configMap?: { name: string; items: Array<{ key: string; path: string }> } }>;
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; spec: PodSpec };
}
interface ServiceSpec {
  selector: Record<string, string>;
  type: string;
  ports: Array<{ name: string; port: number; targetPort: string }>;
}

const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
const manifests: Manifest[] = kustomization.resources.map((file) => parse(readFileSync(join(dir, file), 'utf8')));
const named = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind} ${name} missing`);
  return found;
};
const deployment = (name: string) => named('Deployment', name)['spec'] as DeploymentSpec;
const service = (name: string) => named('Service', name)['spec'] as ServiceSpec;
const container = (name: string) => deployment(name).template.spec.containers[0] as Container;
const secretEnv = Object.fromEntries(
  readFileSync(join(dir, 'secrets.env.example'), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);
const secretName = kustomization.secretGenerator[0]?.name;
/** A container's environment with each Secret reference read from the example secrets file. */
const envOf = (c: Container): Record<string, string> =>
  Object.fromEntries(c.env.map((v) => [v.name, v.value ?? secretEnv[v.valueFrom?.secretKeyRef?.key ?? ''] ?? '']));
const port = (c: Container, name: string) => c.ports.find((p) => p.name === name)?.containerPort;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

function validate(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest as never).validate();
}

describe('deploy/kubernetes', () => {
  it('validates every manifest of the kustomization against the Kubernetes API schema of its kind', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Namespace',
        'PodDisruptionBudget',
        'PodDisruptionBudget',
        'Service',
        'Service',
        'Service',
      ].sort(),
    );
    for (const manifest of manifests) expect(() => validate(manifest), manifest.metadata.name).not.toThrow();
  });

  it('refuses a manifest the schema does not allow (the check is real)', () => {
    const broken = structuredClone(named('Deployment', 'tokengate-gateway')) as Manifest & { spec: DeploymentSpec };
    (broken.spec.template.spec.containers[0] as unknown as { ports: unknown[] }).ports = [{ containerPort: 'http' }];
    expect(() => validate(broken)).toThrow(/containerPort must be integer/);
  });

  it('generates the Secret every container reads, with each key it reads', () => {
    expect(kustomization.secretGenerator[0]?.envs).toEqual(['secrets.env']);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName ?? '' }, stringData: secretEnv };
    expect(() => validate(secret)).not.toThrow();
    for (const name of ['tokengate-gateway', 'tokengate-upstream']) {
      for (const variable of container(name).env.filter((v) => v.valueFrom)) {
        expect(variable.valueFrom?.secretKeyRef?.name, variable.name).toBe(secretName);
        expect(Object.keys(secretEnv)).toContain(variable.valueFrom?.secretKeyRef?.key);
      }
    }
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toContain('deploy/kubernetes/secrets.env');
  });

  it('selects each Deployment’s pods with its Services, autoscaler and disruption budgets', () => {
    for (const name of ['tokengate-gateway', 'tokengate-upstream']) {
      const labels = deployment(name).template.metadata.labels;
      expect(labels).toMatchObject(deployment(name).selector.matchLabels);
      const pdb = named('PodDisruptionBudget', name)['spec'] as { selector: { matchLabels: Record<string, string> } };
      expect(labels).toMatchObject(pdb.selector.matchLabels);
    }
    const hpa = named('HorizontalPodAutoscaler', 'tokengate-gateway')['spec'] as {
      scaleTargetRef: { kind: string; name: string };
      minReplicas: number;
    };
    expect(hpa.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'tokengate-gateway' });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
    for (const [svc, target] of [
      ['tokengate-gateway', 'tokengate-gateway'],
      ['tokengate-upstream', 'tokengate-upstream'],
      ['tokengate-upstream-admin', 'tokengate-upstream'],
    ] as const) {
      expect(deployment(target).template.metadata.labels).toMatchObject(service(svc).selector);
      for (const p of service(svc).ports)
        expect(port(container(target), p.targetPort), `${svc} ${p.name}`).toBeDefined();
    }
  });

  it('keeps the admin API off the upstream’s public Service and off every public one', () => {
    expect(service('tokengate-upstream').ports.map((p) => p.targetPort)).toEqual(['http']);
    expect(service('tokengate-upstream-admin').ports.map((p) => p.targetPort)).toEqual(['admin']);
    expect(service('tokengate-upstream-admin').type).toBe('ClusterIP');
    expect(service('tokengate-gateway').ports.map((p) => p.targetPort)).toEqual(['http']);
  });

  it('serves the ConfigMap’s gateway.yaml to the gateway, and that file fits the pod’s ports and the upstream Service', () => {
    const gw = container('tokengate-gateway');
    const volume = deployment('tokengate-gateway').template.spec.volumes.find((v) => v.configMap);
    expect(volume?.configMap?.name).toBe('tokengate-gateway');
    const mount = gw.volumeMounts.find((m) => m.name === volume?.name);
    const item = volume?.configMap?.items[0];
    expect(gw.args).toEqual(['gateway', '--config', `${mount?.mountPath}/${item?.path}`]);
    const data = (named('ConfigMap', 'tokengate-gateway')['data'] ?? {}) as Record<string, string>;
    const text = data[item?.key ?? ''] ?? '';
    const config = parseGatewayConfig(text, 'gateway.yaml', envOf(gw));
    expect(config.listen).toEqual({ host: '0.0.0.0', port: port(gw, 'http') });
    expect(config.metrics.host).toBe('0.0.0.0');
    expect(config.metrics.port).toBe(port(gw, 'metrics'));
    expect(deployment('tokengate-gateway').template.metadata.annotations['prometheus.io/port']).toBe(
      String(config.metrics.port),
    );
    const upstream = new URL(config.upstream.url);
    expect(upstream.hostname).toBe('tokengate-upstream');
    expect(Number(upstream.port)).toBe(service('tokengate-upstream').ports[0]?.port);
  });

  it('probes readiness on /readyz and liveness on /healthz of the serving port', () => {
    for (const name of ['tokengate-gateway', 'tokengate-upstream']) {
      const c = container(name);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    }
  });

  it('gives the gateway time for its preStop pause, its drain and the 2 s after it before the SIGKILL', () => {
    const spec = deployment('tokengate-gateway').template.spec;
    const gw = container('tokengate-gateway');
    const [command, seconds] = gw.lifecycle.preStop.exec.command;
    expect(command).toBe('sleep');
    const data = (named('ConfigMap', 'tokengate-gateway')['data'] ?? {}) as Record<string, string>;
    const { drainTimeoutMs } = parseGatewayConfig(data['gateway.yaml'] ?? '', 'gateway.yaml', envOf(gw));
    // docs/operations.md: a drain ends within drainTimeoutMs plus at most 2 s.
    expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(seconds) * 1000 + drainTimeoutMs + 2_000);
  });

  it('runs every container as the image’s non-root user on a read-only root filesystem, with requests and limits', () => {
    const dockerUser = /^USER (\S+)$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1];
    expect(dockerUser).toBe('node');
    for (const name of ['tokengate-gateway', 'tokengate-upstream']) {
      const spec = deployment(name).template.spec;
      // uid 1000 is the node user of the official Node.js images.
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      for (const c of spec.containers) {
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
        expect(c.securityContext.capabilities.drop).toEqual(['ALL']);
        expect(Object.keys(c.resources.requests).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(c.resources.limits).sort()).toEqual(['cpu', 'memory']);
        expect(kustomization.images.map((i) => i.name)).toContain(c.image);
      }
    }
  });

  it('runs upstream replicas on PostgreSQL with an environment the upstream accepts', () => {
    expect(deployment('tokengate-upstream').replicas).toBeGreaterThan(1);
    const up = container('tokengate-upstream');
    const config = loadUpstreamConfig(envOf(up));
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.adminToken).toBeDefined();
    expect(config.feedToken).toBeDefined();
    expect(config.keyEncryptionKey).toBeDefined();
    expect(config.upstreamPort).toBe(port(up, 'http'));
    expect(config.adminPort).toBe(port(up, 'admin'));
    expect(config.metrics).toMatchObject({ host: '0.0.0.0', port: port(up, 'metrics') });
    expect(deployment('tokengate-upstream').template.metadata.annotations['prometheus.io/port']).toBe(
      String(config.metrics.port),
    );
  });
});
