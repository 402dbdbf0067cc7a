import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, launch, runCli, startGatewayFixture } from './cli-runner.ts';

/** ANSI colour escapes, as pino-pretty writes them. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`);

/** Runs `tokengate gateway` under a pseudo-terminal (util-linux `script`), as a person at a shell does. */
function inTerminal(env: Record<string, string>) {
  const command = [process.execPath, CLI, 'gateway'].map((arg) => `'${arg}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env['PATH'] ?? '', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/**
 * Stops the gateway as a person at the terminal does, with Ctrl-C. Killing `script` alone
 * leaves the gateway running: it keeps SIGHUP (a reload) when the terminal goes away.
 */
async function stopInTerminal(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.write('\x03');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function until(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tokengate gateway log format', () => {
  let fixture: Awaited<ReturnType<typeof startGatewayFixture>>;
  let file: string;
  beforeAll(async () => {
    fixture = await startGatewayFixture('tokengate-log-format-');
    file = await fixture.writeConfig();
  });
  afterAll(() => fixture.close());

  it('writes JSON lines when stdout is a pipe', { timeout: 60_000 }, async () => {
    const gateway = launch('gateway', { GATEWAY_CONFIG: file });
    try {
      await gateway.waitFor(/"msg":"gateway listening"/, 30_000);
      for (const line of gateway.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });

  it('writes readable lines, access log included and tokens still redacted, with LOG_FORMAT=pretty', {
    timeout: 60_000,
  }, async () => {
    const gateway = launch('gateway', { GATEWAY_CONFIG: file, LOG_FORMAT: 'pretty' });
    try {
      const [, url] = await gateway.waitFor(/gateway listening.*"url":"(http:[^"]+)"/, 30_000);
      const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsb2cifQ.c2lnbmF0dXJlLWxvZw';
      const res = await fetch(`${url}/api/x`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
      const lines = gateway.stdout().trim().split('\n');
      expect(lines.find((line) => line.includes('gateway listening'))).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(gateway\): gateway listening /,
      );
      expect(lines.find((line) => line.includes(': request '))).toMatch(
        /INFO \(gateway\): request .*"route":"\/api\/x"/,
      );
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
      expect(gateway.stdout()).not.toMatch(COLOUR);
      expect(gateway.stdout()).not.toContain(token);
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });

  it('writes coloured readable lines when stdout is a terminal, and JSON there with LOG_FORMAT=json', {
    timeout: 60_000,
  }, async () => {
    for (const [env, pretty] of [
      [{}, true],
      [{ LOG_FORMAT: 'json' }, false],
    ] as const) {
      const gateway = inTerminal({ GATEWAY_CONFIG: file, ...env });
      try {
        await until(() => gateway.output().includes('gateway listening'), 30_000, gateway.output);
        const line =
          gateway
            .output()
            .split('\n')
            .find((l) => l.includes('gateway listening')) ?? '';
        if (pretty) {
          expect(line).toMatch(COLOUR);
          expect(line).not.toContain('{"level"');
        } else {
          expect(line).toMatch(/^\{"level":30,/);
        }
      } finally {
        await stopInTerminal(gateway.child);
      }
    }
  });

  it('refuses a LOG_FORMAT that names no format, with exit 2 and the variable named', { timeout: 30_000 }, async () => {
    const result = await runCli(['gateway'], { GATEWAY_CONFIG: file, LOG_FORMAT: 'text' }, undefined, 20_000);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tokengate: invalid configuration:\n  LOG_FORMAT: must be one of json, pretty (got "text")\n',
    });
  });
});
