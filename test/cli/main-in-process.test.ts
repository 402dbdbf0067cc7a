import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.ts';
import { runCliInProcess } from '#test/cli-in-process.ts';

/** What the tests' in-process runs rely on: `main` answers through `io` and leaves the process alone. */
describe('the CLI main(argv, io)', () => {
  it('returns the exit status and leaves process.env and process.exitCode as they were', async () => {
    const env = { ...process.env };
    const exitCode = process.exitCode;
    const usage = await runCliInProcess([], {});
    expect(usage.code).toBe(2);
    expect(usage.stdout).toContain('usage: tokengate <command>');
    const invalid = await runCliInProcess(['check-config', 'config/gateway.yaml'], { ADMIN_PORT: '70000' });
    expect(invalid).toEqual({
      code: 2,
      stdout: '',
      stderr: 'invalid upstream environment:\n  ADMIN_PORT: must be a port number 0..65535 (got "70000")\n',
    });
    expect(process.exitCode).toBe(exitCode);
    expect(process.env).toEqual(env);
  });

  it('installs no listener on this process when upstream, start or gateway refuse their configuration', async () => {
    const listeners = () =>
      ['SIGTERM', 'SIGINT', 'SIGHUP', 'uncaughtException'].map((event) => process.listenerCount(event));
    const before = listeners();
    for (const command of ['upstream', 'start', 'gateway']) {
      const result = await runCliInProcess([command], { LOG_LEVEL: 'verbose' });
      expect({ command, code: result.code }).toEqual({ command, code: 2 });
    }
    expect(listeners()).toEqual(before);
  });

  it('reports a stdout that refuses the output on its stderr, with status 1', async () => {
    const stdout = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error('gone'), { code: 'EPIPE' })),
    });
    let stderr = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        stderr += chunk.toString();
        done();
      },
    });
    const signals = { stopSignal: () => new Promise<NodeJS.Signals>(() => {}), ignoreHangUps() {} };
    expect(await main(['--version'], { env: {}, stdout, stderr: sink, cwd: process.cwd(), signals })).toBe(1);
    expect(stderr).toBe('tokengate: the command ran, but its output could not be written to stdout (EPIPE)\n');
  });
});
