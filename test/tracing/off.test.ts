import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingSettings } from '#common';
import { loadUpstreamConfig } from '#upstream';
import { startOtlpReceiver } from '#test/otlp-receiver.ts';
import { startGatewayFixture } from '../cli/cli-runner.ts';

function probe(file: string, env: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'off-probe.ts'), file], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`probe exited ${code}: ${out}`));
      else resolve(JSON.parse(last) as string[]);
    });
  });
}

describe('tracing turned off', () => {
  let fixture: Awaited<ReturnType<typeof startGatewayFixture>>;
  let file: string;
  beforeAll(async () => {
    fixture = await startGatewayFixture('tokengate-tracing-off-');
    file = await fixture.writeConfig();
  });
  afterAll(() => fixture.close());

  it('loads no OpenTelemetry SDK module and no span code in a gateway serving requests without OTEL_EXPORTER_OTLP_ENDPOINT', {
    timeout: 60_000,
  }, async () => {
    expect(await probe(file, {})).toEqual([]);
  });

  it('loads the SDK once an endpoint is set (the probe sees it)', { timeout: 60_000 }, async () => {
    // A collector that answers: exporting to a closed port, the shutdown waited out the exporter's retries (7 s).
    const collector = await startOtlpReceiver();
    const loaded = await probe(file, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    }).finally(() => collector.close());
    expect(loaded.some((url) => url.includes('@opentelemetry/sdk-trace'))).toBe(true);
    expect(loaded.some((url) => url.includes('/gateway/tracing/request-trace.ts'))).toBe(true);
  });

  it('is off unless an OTLP endpoint is set, and off again with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingSettings({}, 'x')).toBeUndefined();
    expect(loadUpstreamConfig({}).tracing).toBeUndefined();
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' };
    expect(tracingSettings(on, 'tokengate-gateway')).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: 'tokengate-gateway',
      sampler: 'parentbased_always_on',
      ratio: 1,
      scheduleDelayMs: 5000,
    });
    expect(tracingSettings({ ...on, OTEL_SDK_DISABLED: 'true' }, 'x')).toBeUndefined();
    expect(tracingSettings({ ...on, OTEL_TRACES_EXPORTER: 'none' }, 'x')).toBeUndefined();
    expect(
      tracingSettings(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/traces',
          OTEL_SERVICE_NAME: 'edge-1',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
        },
        'x',
      ),
    ).toMatchObject({
      url: 'http://c/traces',
      serviceName: 'edge-1',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
  });
});
