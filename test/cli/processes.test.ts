import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '#test/store-template.ts';
import { clientCredentialsToken } from '../upstream/upstream-fixture.ts';
import { launch, runCli, stackEnv } from './cli-runner.ts';

type Json = Record<string, unknown>;

describe('long-running commands', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    // A migrated store already (store-template.ts): no test here is about a first start's initdb.
    dataDir = await migratedDataDir('tokengate-proc-');
    env = await stackEnv(dataDir);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  // One test for `upstream` and `gateway` (an upstream start each before): the upstream started
  // again on its data is the one the gateway alone runs in front of.
  it('runs `upstream` until SIGTERM (exit 0) and keeps its data for the next start; runs `gateway` alone in front of a separate `upstream` (reading its feed token from DATA_DIR); both stop with exit 0', {
    timeout: 180_000,
  }, async () => {
    const first = launch('upstream', env);
    await first.waitFor(/admin token: in (\S+)/);
    expect(first.stdout()).toContain(`upstream:    http://127.0.0.1:${env['UPSTREAM_PORT']}`);
    expect(first.stdout()).toContain(`admin API:   http://127.0.0.1:${env['ADMIN_PORT']}`);
    expect(first.stdout()).toContain(`admin token: in ${join(dataDir, 'admin-token')}`);
    const created = await runCli(
      ['admin', 'project', 'create', '--name', 'durable', '--plan', 'business', '--json'],
      env,
    );
    const project = JSON.parse(created.stdout) as Json;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = launch('upstream', env);
    await second.waitFor(/admin token:/);
    const listed = await runCli(['admin', 'project', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining(project)]);

    const gateway = launch('gateway', env);
    const gatewayUrl = `http://127.0.0.1:${env['GATEWAY_PORT']}`;
    let ready = 0;
    for (let i = 0; i < 300 && ready !== 200; i++) {
      ready = await fetch(`${gatewayUrl}/readyz`).then(
        (res) => res.status,
        () => 0,
      );
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(200);
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('runs `start`: the whole stack on the configured ports, a token through the gateway, SIGHUP reloads the route map, SIGTERM stops both (exit 0)', {
    timeout: 180_000,
  }, async () => {
    const configFile = join(dataDir, 'gateway.yaml');
    const routeMap = await readFile(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), 'utf8');
    await writeFile(configFile, routeMap);
    const stack = launch('start', { ...env, GATEWAY_CONFIG: configFile });
    const gatewayUrl = (await stack.waitFor(/gateway: +(\S+)\n/))[1];
    expect(gatewayUrl).toBe(`http://127.0.0.1:${env['GATEWAY_PORT']}`);
    await stack.waitFor(/admin token: in \S+/);
    expect((await fetch(`${gatewayUrl}/readyz`)).status).toBe(200);

    const project = JSON.parse(
      (await runCli(['admin', 'project', 'create', '--name', 's', '--plan', 'business', '--json'], env)).stdout,
    ) as Json;
    const client = JSON.parse(
      (
        await runCli(
          [
            'admin',
            'client',
            'create',
            '--project',
            String(project['id']),
            '--name',
            'c',
            '--scopes',
            'phone',
            '--json',
          ],
          env,
        )
      ).stdout,
    ) as Json;
    const token = await clientCredentialsToken(
      String(gatewayUrl),
      String(client['client_id']),
      String(client['client_secret']),
    );
    const phone = await fetch(
      `${gatewayUrl}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(phone.status).toBe(200);

    // Take the phone route out of the map and signal: the running gateway stops routing it.
    const withoutPhone = routeMap.replace(/^.*\/api\/phone\/v1\/verification.*\n/m, '');
    expect(withoutPhone).not.toContain('/api/phone/v1/verification');
    await writeFile(configFile, withoutPhone);
    stack.child.kill('SIGHUP');
    let status = 200;
    for (let i = 0; i < 100 && status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await fetch(`${gatewayUrl}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`))
        .status;
    }
    expect(status).toBe(404);

    stack.child.kill('SIGTERM');
    expect(await stack.exited).toBe(0);
    await expect(fetch(`${gatewayUrl}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${env['UPSTREAM_PORT']}/healthz`)).rejects.toThrow();
  });
});
