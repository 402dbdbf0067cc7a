import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COMMANDS, runAdmin } from '../../src/cli/admin/index.ts';
import { ADMIN_HELP } from '../../src/cli/admin/help.ts';
import { closest } from '../../src/cli/closest.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { ENVIRONMENT } from '../../src/cli/environment.ts';
import { CLI, runCli, spawnCli, startGatewayFixture } from './cli-runner.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
const configuration = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

async function adminOutput(args: string[]): Promise<string> {
  const printed: string[] = [];
  await runAdmin(args, {}, (text) => printed.push(text));
  return printed.join('\n');
}

describe('tokengate --help and --version', () => {
  it('lists every command with one line each, and the exit statuses', async () => {
    const result = await runCli(['--help'], {});
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command.name} +\\S`, 'm'));
    expect(result.stdout).toContain('2  wrong usage or invalid configuration');
  });

  it('prints the version of the package and of Node', async () => {
    for (const flag of ['--version', '-V']) {
      // `--version` from a real process: the Node that runs it, and exactly one line on stdout.
      const result = flag === '--version' ? await spawnCli([flag], {}) : await runCli([flag], {});
      expect(result).toEqual({ code: 0, stdout: `tokengate ${version} (Node.js ${process.version})\n`, stderr: '' });
    }
  });

  it('shows each command’s usage, options and environment with --help, and starts nothing', async () => {
    for (const command of COMMANDS) {
      const result = await runCli([command.name, '--help'], {}, undefined, 10_000);
      expect(result.code, command.name).toBe(0);
      expect(result.stdout).toContain(`usage: ${command.usage}`);
      for (const name of Object.keys(command.options)) expect(result.stdout).toContain(`--${name}`);
      for (const name of command.environment) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
      expect(result.stdout).toContain('Exit status:');
    }
  });

  it('answers `tokengate help <command>` as `tokengate <command> --help`', async () => {
    const viaHelp = await runCli(['help', 'gateway'], {});
    const viaFlag = await runCli(['gateway', '--help'], {});
    expect(viaHelp).toEqual(viaFlag);
  });

  it('names the closest valid option or command for a mistyped one, with exit 2', async () => {
    const option = await runCli(['gateway', '--confg', 'x.yaml'], {});
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--confg'; did you mean --config?");
    const command = await runCli(['gatway'], {});
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "gatway"; did you mean gateway?');
    const adminOption = await runCli(['admin', 'keys', 'list', '--jsn'], {});
    expect(adminOption.code).toBe(2);
    expect(adminOption.stderr).toContain("Unknown option '--jsn'; did you mean --json?");
    const verb = await runCli(['admin', 'client', 'creat'], {});
    expect(verb.code).toBe(2);
    expect(verb.stderr).toContain('unknown admin command "client creat"; did you mean "client create"?');
    for (const result of [option, command, adminOption, verb]) expect(result.stdout).toBe('');
  });

  it('suggests only what is near: a far-off word gets no suggestion', () => {
    expect(closest('--confg', ['--config', '--help'])).toBe('--config');
    expect(closest('--colour', ['--json', '--help', '--name'])).toBeUndefined();
    expect(closest('satrt', ['start', 'upstream'])).toBe('start');
  });
});

describe('tokengate gateway --config FILE', () => {
  let fixture: Awaited<ReturnType<typeof startGatewayFixture>>;
  let file: string;
  beforeAll(async () => {
    fixture = await startGatewayFixture('tokengate-config-flag-');
    file = await fixture.writeConfig();
  });
  afterAll(() => fixture.close());

  it('serves the file --config names, over GATEWAY_CONFIG', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'gateway', '--config', file], {
      env: { PATH: process.env['PATH'] ?? '', GATEWAY_CONFIG: join(fixture.dir, 'missing.yaml') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!stdout.includes('gateway listening') && Date.now() < deadline && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /"url":"(http:[^"]+)"/.exec(stdout)?.[1];
      expect(url).toBeDefined();
      // The one route of the fixture's file: a bearer route that refuses a request without a token.
      const res = await fetch(`${url}/api/x`);
      expect(res.status).toBe(401);
      child.kill('SIGTERM');
      const [code] = await new Promise<[number | null]>((resolve) => child.once('exit', (c) => resolve([c])));
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

const keys = ADMIN_COMMANDS.map((c) => `${c.noun} ${c.verb}`);

describe('tokengate admin help', () => {
  it('has help for every admin command, and none for a command that does not exist', () => {
    expect(Object.keys(ADMIN_HELP).sort()).toEqual([...keys].sort());
    for (const help of Object.values(ADMIN_HELP)) expect(help.summary.length).toBeGreaterThan(10);
  });

  it('shows each admin command’s usage, options and environment with --help, sending nothing', async () => {
    for (const command of ADMIN_COMMANDS) {
      const text = await adminOutput([command.noun, ...command.verb.split(' '), '--help']);
      expect(text).toContain(`usage: tokengate admin ${command.usage}`);
      expect(text).toContain(ADMIN_HELP[`${command.noun} ${command.verb}`]?.summary);
      for (const flag of command.usage.match(/--[a-z]+/g) ?? []) expect(text).toContain(flag);
      expect(text).toContain('ADMIN_TOKEN');
      expect(text).toContain('Exit status:');
    }
  });

  it('lists the verbs of a noun with `tokengate admin <noun> --help`', async () => {
    const text = await adminOutput(['client', '--help']);
    for (const command of ADMIN_COMMANDS.filter((c) => c.noun === 'client'))
      expect(text).toMatch(new RegExp(`^  ${command.verb} +\\S`, 'm'));
    // `keys rotate` is another noun's.
    expect(text).not.toMatch(/^ {2}rotate /m);
  });
});

describe('the command-line documentation', () => {
  const cliSection = operations.slice(operations.indexOf('## Command line'), operations.indexOf('## Exit statuses'));
  const adminTable = operations.slice(
    operations.indexOf('## CLI: `tokengate admin`'),
    operations.indexOf('## Admin API'),
  );

  it('documents every command, and no command that is gone', () => {
    const documented = [...cliSection.matchAll(/^\| `tokengate ([a-z-]+)/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  it('documents every admin command in the admin table, and no admin command that is gone', () => {
    const firstCells = adminTable
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ')[0] ?? '');
    const documented = firstCells.flatMap((cell) =>
      [...cell.matchAll(/`([a-z]+(?: [a-z][a-z0-9-]*)+)\b[^`]*`/g)].map((m) => m[1]),
    );
    expect([...new Set(documented)].sort()).toEqual([...keys].sort());
  });

  it('documents every environment variable a command’s help names in configuration.md', () => {
    const named = new Set(COMMANDS.flatMap((c) => c.environment));
    for (const name of named) {
      expect(Object.keys(ENVIRONMENT)).toContain(name);
      expect(configuration, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    }
  });
});
