import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, onTestFailed } from 'vitest';
import { type HttpBalancer, startHttpBalancer } from '#test/http-balancer.ts';
import { type CliResult, freePort, runCli, waitForReady } from '#test/stack.ts';
import { copyAddressSample } from '#test/store-template.ts';

/**
 * The scale-out deployment of the README ("PostgreSQL and upstream replicas", "Scaling
 * gateways") as real processes on loopback:
 *
 *   gateway 1 ─┐                     ┌─▶ replica 1 (tokengate upstream) ─┐
 *              ├─▶ HTTP balancer ────┤                                    ├─▶ PostgreSQL (own schema)
 *   gateway 2 ─┘  (round robin,      └─▶ replica 2 (tokengate upstream) ─┘
 *                  /readyz checks)
 *
 * Both gateways' UPSTREAM_URL is the balancer, so their forwarded API calls and token requests,
 * their key-set fetches and their revocation-feed long polls all land on either replica, request
 * by request. Replicas share what an operator must make the same: ADMIN_TOKEN and
 * KEY_ENCRYPTION_KEY in the environment, the feed token as a `feed-token` file copied into every
 * process's own DATA_DIR (as a mounted secret would be), PUBLIC_URL. Each replica has its own
 * admin port; `admin(args, replica)` runs the admin CLI against the one chosen.
 *
 * Start as few as the cases allow (`describeScaleOut`): each costs about 5 s of CPU to start (a
 * replica about 1.7 s, a gateway about 1 s, with the run's compile cache), a fraction of a second
 * to stop. The suite starts two (changes-propagation.test.ts, rotation-failover.test.ts), each
 * shared by the cases of several `*.cases.ts` files.
 */
export interface Endpoint {
  /** As printed: "gateway 1", "replica 2". */
  readonly name: string;
  /** Base URL of its public server (gateway, or the replica's issuer and validation API). */
  readonly url: string;
}

export interface Replica extends Endpoint {
  readonly adminUrl: string;
  /** SIGKILL, as a crash or an out-of-memory kill: nothing is drained. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same ports, DATA_DIR and database; resolves once its /readyz answers 200. */
  restart(): Promise<void>;
}

export interface ClientCredentials {
  readonly client_id: string;
  readonly client_secret: string;
}

export interface CreatedClient extends ClientCredentials {
  readonly name: string;
  readonly scopes: string[];
  readonly enabled: boolean;
}

export interface Project {
  readonly id: string;
  readonly name: string;
  readonly plan: string;
}

/** A JSON answer: token endpoint, API call or admin API. */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface ScaleOut {
  readonly gateways: readonly [Endpoint, Endpoint];
  readonly replicas: readonly [Replica, Replica];
  /** Both gateways, then both replicas (a direct call: the upstream re-checks every token). */
  readonly everywhere: readonly Endpoint[];
  readonly balancer: HttpBalancer;
  /** `tokengate admin <args> --json` against `replica`'s admin API (default replica 1); throws on failure. */
  admin<T>(args: readonly string[], replica?: Replica): Promise<T>;
  /** The same CLI, its exit code and output as they are (for cases that expect a refusal). */
  adminCli(args: readonly string[], replica?: Replica): Promise<CliResult>;
  /** One admin API request straight to `replica`: for timings that must not include a CLI start. */
  adminApi(method: string, path: string, body?: unknown, replica?: Replica): Promise<Answer>;
  /** A project of `plan` and one client with `scopes`, made with the CLI on `replica`. */
  newClient(
    scopes?: string,
    options?: { plan?: string; replica?: Replica },
  ): Promise<{ project: Project; client: CreatedClient }>;
  /** POST /oauth/token (client credentials, form) at `via`. */
  tokenRequest(client: ClientCredentials, via: Endpoint, extra?: Record<string, string>): Promise<Answer>;
  /** An access token from `via`; throws with the answer unless it is 200. */
  token(client: ClientCredentials, via: Endpoint, extra?: Record<string, string>): Promise<string>;
  /** GET `path` at `via` with the bearer token. */
  call(path: string, token: string, via: Endpoint): Promise<Answer>;
  /** Everything the processes wrote, prefixed by their names: print it when a case fails. */
  logs(): string;
  stop(): Promise<void>;
}

/** A cheap call under scope `phone` (no network, no address data). */
export const PHONE_PATH = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'src', 'cli', 'main.ts');
const MAX_LOG_CHARS = 200_000;

/** The suite's PostgreSQL server (CI: postgres://postgres@127.0.0.1:5432/test); unset, the suite is skipped. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/**
 * A describe block with its own stack: started once before its tests, stopped after them, its
 * processes' last log lines printed when a test fails. Skipped, with the reason printed, when
 * TEST_DATABASE_URL is unset. Tests get the running stack from `stack()`.
 */
export function describeScaleOut(title: string, define: (stack: () => ScaleOut) => void): void {
  const skipped = testDatabaseUrl ? undefined : 'skipped: TEST_DATABASE_URL is not set';
  if (skipped) console.log(`[scaleout] ${title}: ${skipped}`);
  describe.skipIf(!testDatabaseUrl)(skipped ? `${title} (${skipped})` : title, () => {
    let running: ScaleOut | undefined;
    beforeAll(async () => {
      running = await startScaleOut(testDatabaseUrl ?? '');
    }, 120_000);
    afterAll(async () => {
      await running?.stop();
    });
    beforeEach(() => {
      onTestFailed(() => console.log(`[scaleout] last process output:\n${running?.logs().slice(-6000) ?? ''}`));
    });
    define(() => {
      if (!running) throw new Error('the scale-out stack is not running (did beforeAll fail?)');
      return running;
    });
  });
}

export async function startScaleOut(baseDatabaseUrl: string): Promise<ScaleOut> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const undo = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  const output: string[] = [];
  try {
    const dir = await mkdtemp(join(tmpdir(), 'tokengate-scaleout-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await privateSchema(baseDatabaseUrl);
    cleanups.push(database.drop);

    const [g1Port, g2Port, r1Port, r2Port, r1Admin, r2Admin, m1Port, m2Port] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const shared = {
      // The address clients use (token `iss` and `aud`): gateway 1's, standing in for the load
      // balancer a real deployment puts in front of its gateways.
      PUBLIC_URL: `http://127.0.0.1:${g1Port}`,
      LOG_LEVEL: 'info',
    };
    const secrets = {
      ADMIN_TOKEN: randomBytes(32).toString('base64url'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    };
    // One address data set for both replicas, as the volume they share in a deployment
    // (docs/deployment.md): a copy of the run's sample, which each would otherwise generate in
    // its DATA_DIR at start, about 1 s of CPU (the cases call no address API).
    const addressDataDir = join(dir, 'address-data');
    await mkdir(addressDataDir, { mode: 0o700 });
    await copyAddressSample(addressDataDir);
    const feedToken = randomBytes(32).toString('base64url');
    const dataDir = async (name: string) => {
      const path = join(dir, name);
      await mkdir(path, { mode: 0o700 });
      await writeFile(join(path, 'feed-token'), `${feedToken}\n`, { mode: 0o600 });
      return path;
    };
    let logged = 0;
    const log = (name: string) => (chunk: Buffer) => {
      const lines = chunk.toString().replace(/^(?=.)/gm, `[${name}] `);
      output.push(lines);
      logged += lines.length;
      while (output.length > 1 && logged > MAX_LOG_CHARS) logged -= output.shift()?.length ?? 0;
    };
    const launch = async (name: string, role: 'upstream' | 'gateway', env: Record<string, string>) => {
      const child = new ManagedProcess(
        name,
        role,
        { ...env, DATA_DIR: await dataDir(name.replace(' ', '-')) },
        log(name),
      );
      cleanups.push(() => child.stop());
      await child.start();
      return child;
    };

    const replicaEnv = (port: number, adminPort: number) => ({
      ...shared,
      ...secrets,
      DATABASE_URL: database.url,
      ADDRESS_DATA_DIR: addressDataDir,
      UPSTREAM_PORT: String(port),
      ADMIN_PORT: String(adminPort),
    });
    const replicas = (
      await Promise.all([
        launch('replica 1', 'upstream', replicaEnv(r1Port, r1Admin)),
        launch('replica 2', 'upstream', replicaEnv(r2Port, r2Admin)),
      ])
    ).map(replicaOf) as [Replica, Replica];

    const balancer = await startHttpBalancer(replicas.map((r) => r.url));
    cleanups.push(() => balancer.close());

    const gatewayEnv = (port: number, metricsPort: number) => ({
      ...shared,
      GATEWAY_CONFIG: join(root, 'config', 'gateway.yaml'),
      GATEWAY_PORT: String(port),
      METRICS_PORT: String(metricsPort),
      UPSTREAM_URL: balancer.url,
    });
    const gateways = (
      await Promise.all([
        launch('gateway 1', 'gateway', gatewayEnv(g1Port, m1Port)),
        launch('gateway 2', 'gateway', gatewayEnv(g2Port, m2Port)),
      ])
    ).map((g): Endpoint => ({ name: g.name, url: g.url })) as [Endpoint, Endpoint];

    return assemble({ gateways, replicas, balancer, adminToken: secrets.ADMIN_TOKEN, output, stop: undo });
  } catch (error) {
    await undo();
    throw new Error(`the scale-out stack did not start: ${String(error)}\n${output.join('').slice(-5000)}`);
  }
}

function assemble(parts: {
  gateways: readonly [Endpoint, Endpoint];
  replicas: readonly [Replica, Replica];
  balancer: HttpBalancer;
  adminToken: string;
  output: string[];
  stop: () => Promise<void>;
}): ScaleOut {
  const { gateways, replicas, balancer, adminToken } = parts;
  const adminCli = (args: readonly string[], replica: Replica = replicas[0]) =>
    runCli(['admin', ...args], { ADMIN_URL: replica.adminUrl, ADMIN_TOKEN: adminToken });
  const admin = async <T>(args: readonly string[], replica: Replica = replicas[0]): Promise<T> => {
    const result = await adminCli([...args, '--json'], replica);
    if (result.code !== 0) {
      throw new Error(`admin ${args.join(' ')} on ${replica.name} failed (${result.code}): ${result.stderr}`);
    }
    return JSON.parse(result.stdout) as T;
  };
  const tokenRequest = async (client: ClientCredentials, via: Endpoint, extra: Record<string, string> = {}) =>
    answerOf(
      await fetch(`${via.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          ...extra,
        }),
      }),
    );
  return {
    gateways,
    replicas,
    everywhere: [...gateways, ...replicas],
    balancer,
    admin,
    adminCli,
    async adminApi(method, path, body, replica = replicas[0]) {
      return answerOf(
        await fetch(`${replica.adminUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${adminToken}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    },
    async newClient(scopes = 'phone', options = {}) {
      const replica = options.replica ?? replicas[0];
      const name = `p-${randomBytes(4).toString('hex')}`;
      const project = await admin<Project>(
        ['project', 'create', '--name', name, '--plan', options.plan ?? 'business'],
        replica,
      );
      const client = await admin<CreatedClient>(
        ['client', 'create', '--project', project.id, '--name', 'svc', '--scopes', scopes],
        replica,
      );
      return { project, client };
    },
    tokenRequest,
    async token(client, via, extra) {
      const answer = await tokenRequest(client, via, extra);
      if (answer.status !== 200 || typeof answer.body.access_token !== 'string') {
        throw new Error(`token request at ${via.name} answered ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      return answer.body.access_token;
    },
    async call(path, token, via) {
      return answerOf(await fetch(`${via.url}${path}`, { headers: { authorization: `Bearer ${token}` } }));
    },
    logs: () => parts.output.join(''),
    stop: parts.stop,
  };
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: { unparsed: text.slice(0, 200) } };
  }
}

/** One `tokengate upstream|gateway` process that can be killed and started again with the same environment. */
class ManagedProcess {
  readonly name: string;
  readonly url: string;
  readonly adminUrl: string;
  readonly #role: 'upstream' | 'gateway';
  readonly #env: Record<string, string>;
  readonly #onOutput: (chunk: Buffer) => void;
  #child: ChildProcess | undefined;

  constructor(
    name: string,
    role: 'upstream' | 'gateway',
    env: Record<string, string>,
    onOutput: (chunk: Buffer) => void,
  ) {
    this.name = name;
    this.#role = role;
    this.#env = env;
    this.#onOutput = onOutput;
    const port = role === 'upstream' ? env.UPSTREAM_PORT : env.GATEWAY_PORT;
    this.url = `http://127.0.0.1:${port}`;
    this.adminUrl = `http://127.0.0.1:${env.ADMIN_PORT ?? ''}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [cli, this.#role], { env: { ...process.env, ...this.#env }, stdio: 'pipe' });
    child.stdout.on('data', this.#onOutput);
    child.stderr.on('data', this.#onOutput);
    this.#child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`${this.name} exited (${code ?? signal}) while starting`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForReady(this.url, 60_000), exited]);
  }

  /** Ends the process with `signal` (SIGTERM: drained; SIGKILL: gone at once) and waits for its exit. */
  async end(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  }

  stop(): Promise<void> {
    return this.end('SIGTERM');
  }
}

function replicaOf(child: ManagedProcess): Replica {
  return {
    name: child.name,
    url: child.url,
    adminUrl: child.adminUrl,
    kill: () => child.end('SIGKILL'),
    restart: async () => {
      await child.end('SIGTERM');
      await child.start();
    },
  };
}

/** A schema of its own on the test server (DATABASE_URL's search_path), dropped by `drop`. */
async function privateSchema(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `tg_scaleout_${randomBytes(6).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: () => adminQuery(baseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface Arrival {
  readonly endpoint: Endpoint;
  /** Milliseconds from `since` to the first answer that met the condition, or null if none did in the window. */
  readonly ms: number | null;
  /** That answer (or the last one seen). */
  readonly answer: Answer;
  readonly attempts: number;
}

/**
 * Asks every endpoint at once, each in its own loop, until its answer meets `done` or `windowMs`
 * after `since` (a `performance.now()`) has passed: when something propagates, when did each
 * endpoint see it. The window (default 5 s) is longer than the bound a test asserts, so a miss
 * reports the time it really took (or null) rather than only "not yet". Asks every `intervalMs`
 * (default 5).
 */
export async function arrivals(
  endpoints: readonly Endpoint[],
  ask: (endpoint: Endpoint) => Promise<Answer>,
  done: (answer: Answer) => boolean,
  options: { since: number; windowMs?: number; intervalMs?: number },
): Promise<Arrival[]> {
  const until = options.since + (options.windowMs ?? 5000);
  return Promise.all(
    endpoints.map(async (endpoint) => {
      let attempts = 0;
      for (;;) {
        const answer = await ask(endpoint);
        attempts += 1;
        if (done(answer)) return { endpoint, ms: Math.round(performance.now() - options.since), answer, attempts };
        if (performance.now() >= until) return { endpoint, ms: null, answer, attempts };
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 5));
      }
    }),
  );
}

/** One line per endpoint for the test output: what propagated, and how long each took. */
export function report(what: string, seen: readonly Arrival[], extra = ''): void {
  const times = seen.map((a) => `${a.endpoint.name} ${a.ms === null ? 'not within the window' : `${a.ms} ms`}`);
  console.log(`[scaleout] ${what}: ${times.join(', ')}${extra ? ` (${extra})` : ''}`);
}

/** An endpoint's final answer (status, documented error code if any) and whether it came in time. */
export interface Verdict {
  readonly status: number;
  readonly error_code: unknown;
  readonly inTime: boolean;
}

/**
 * What each endpoint answered and whether it did so within `boundMs`, keyed by endpoint name:
 * compare it with `toEqual` so a failure names the endpoint (the times are in the report line).
 */
export function verdicts(seen: readonly Arrival[], boundMs: number): Record<string, Verdict> {
  return Object.fromEntries(
    seen.map((a) => [
      a.endpoint.name,
      { status: a.answer.status, error_code: a.answer.body.error_code, inTime: a.ms !== null && a.ms < boundMs },
    ]),
  );
}

/** The same expected verdict for every endpoint named. */
export function everyOne(endpoints: readonly Endpoint[], verdict: Verdict): Record<string, Verdict> {
  return Object.fromEntries(endpoints.map((e) => [e.name, verdict]));
}

/** The parsed JWT header. */
export function jwtHeader(token: string): { kid: string; alg: string } {
  return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid: string; alg: string };
}
