import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, runCli, startGatewayFixture } from './cli-runner.ts';

describe('tokengate gateway and LOG_LEVEL', () => {
  let fixture: Awaited<ReturnType<typeof startGatewayFixture>>;
  let file: string;
  beforeAll(async () => {
    fixture = await startGatewayFixture('tokengate-log-level-');
    file = await fixture.writeConfig();
  });
  afterAll(() => fixture.close());

  it('refuses an unknown LOG_LEVEL naming the variable, as the upstream does (exit 2, nothing on stdout)', {
    timeout: 30_000,
  }, async () => {
    const result = await runCli(['gateway'], { GATEWAY_CONFIG: file, LOG_LEVEL: 'verbose' }, undefined, 20_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // Before: "tokengate: default level:verbose must be included in custom levels", exit 1.
    expect(result.stderr).toBe(
      'tokengate: invalid configuration:\n  LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")\n',
    );
  });

  it('starts at the default level (info) when LOG_LEVEL is set but empty, as the upstream does', {
    timeout: 60_000,
  }, async () => {
    const gateway = launch('gateway', { GATEWAY_CONFIG: file, LOG_LEVEL: '' });
    try {
      // Before: it exited 1 at once ("default level: must be included in custom levels").
      await gateway.waitFor(/"msg":"gateway listening"/, 30_000);
      expect(gateway.stdout()).toContain('"level":30');
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });
});
