import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '#test/cli-in-process.ts';

/** `tokengate check-config` (in-process) on route claim rules that can never hold. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tg-claims-check-'));
  // The first command loads the CLI's modules (seconds on a busy machine): in the hook, whose timeout allows it.
  expect((await check('routes:\n  - { path: /x, auth: none }\n')).code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function check(yaml: string) {
  const file = join(dir, `gateway-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, yaml);
  return runCliInProcess(['check-config', file], {});
}

function route(extra: string): string {
  return `routes:\n  - path: /api/x\n    auth: bearer\n${extra}`;
}

describe('check-config on claim rules', () => {
  it('accepts rules and claim headers that can hold', async () => {
    const result = await check(
      `claimTypes: { roles: list, level: number }\n${route(
        '    claims: { tenant: acme, roles: { contains: admin }, level: { oneOf: [1, 2] }, project_id: p1 }\n' +
          '    claimHeaders: { X-Tenant: tenant, X-Roles: roles }\n',
      )}`,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^OK /);
  });

  it.each([
    ['a rule on exp', '    claims: { exp: 1 }\n', 'routes[0].claims.exp: exp is checked by the verifier itself'],
    [
      'a rule on scope',
      '    claims: { scope: address }\n',
      'routes[0].claims.scope: scope is checked by the verifier itself',
    ],
    [
      'contains on a built-in string claim',
      '    claims: { sub: { contains: x } }\n',
      'routes[0].claims.sub: "contains" needs a list claim, but sub is a string (a built-in claim) (line 4)',
    ],
    [
      'a number compared with a string claim',
      '    claims: { client_id: 7 }\n',
      'routes[0].claims.client_id: a number value, but client_id is a string (a built-in claim)',
    ],
    [
      'oneOf mixing types',
      '    claims: { tier: { oneOf: [gold, 1] } }\n',
      'routes[0].claims.tier: oneOf values must all be of one type',
    ],
    [
      'rules with allowKeySecret',
      '    allowKeySecret: true\n    claims: { tenant: acme }\n',
      'routes[0].claims: claims rules need a token',
    ],
    [
      'a claim header the gateway sets itself',
      '    claimHeaders: { X-Forwarded-For: tenant }\n',
      'X-Forwarded-For is set or checked by the gateway itself',
    ],
    ['a header named twice', '    claimHeaders: { X-Tenant: tenant, x-tenant: org }\n', 'a header is named twice'],
  ])('exits 2 naming %s', async (_, extra, message) => {
    const result = await check(route(extra));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('exits 2 on contains against a claim claimTypes declares scalar', async () => {
    const result = await check(
      `claimTypes: { tenant: string }\n${route('    claims: { tenant: { contains: acme } }\n')}`,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'routes[0].claims.tenant: "contains" needs a list claim, but tenant is a string (claimTypes)',
    );
  });

  it('exits 2 when two routes use one undeclared claim as a list and as a string', async () => {
    const result = await check(
      `${route('    claims: { roles: { contains: admin } }\n')}  - { path: /api/y, auth: bearer, claims: { roles: admin } }\n`,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'routes[1].claims.roles: roles is a list (by routes[0].claims.roles): use {contains: value}, not a string to compare it with',
    );
  });

  it('exits 2 on claim rules of a public route', async () => {
    const result = await check('routes:\n  - { path: /x, auth: none, claims: { tenant: acme } }\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('routes[0].auth: claims and claimHeaders need auth: bearer');
  });
});
