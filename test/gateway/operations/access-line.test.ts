import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import type { GatewayMetrics } from '../../../src/gateway/ops/metrics.ts';
import { type AccessLine, accessLineFor, finishRequest, millisJson } from '../../../src/gateway/server/access-log.ts';
import type { Generation } from '../../../src/gateway/server/generation.ts';
import { type StepDeps, newContext } from '../../../src/gateway/server/context.ts';

describe('the access line latency field', () => {
  it('is a JSON number equal to the latency rounded to hundredths of a millisecond', () => {
    const samples = [0, 0.004, 0.005, 0.01, 0.1, 0.5, 1, 1.05, 1.5, 1.999, 2.345, 12.34, 99.995, 1234.5678, 60_000.01];
    for (let i = 0; i < 2_000; i++) samples.push(Math.random() * 10 ** (i % 6));
    for (const ms of samples) {
      const text = millisJson(ms);
      expect(text).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(JSON.parse(text)).toBeCloseTo(Math.round(ms * 100) / 100, 10);
    }
  });

  it('writes no trailing zeros', () => {
    expect(millisJson(3)).toBe('3');
    expect(millisJson(3.1)).toBe('3.1');
    expect(millisJson(3.05)).toBe('3.05');
    expect(millisJson(0.999)).toBe('1');
  });

  it('stays exact past the small-integer range (a reply streamed for hours)', () => {
    expect(millisJson(30_000_000.126)).toBe('30000000.13');
    expect(JSON.parse(millisJson(86_400_000.5))).toBe(86_400_000.5);
  });
});

describe('where the access line goes', () => {
  /** The line a finished 200 on `/api/*` writes through `out`, as parsed JSON. */
  function lineThrough(out: AccessLine, lines: string[]): Record<string, unknown> {
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    res.statusCode = 200;
    const record = newContext({} as StepDeps, req, res, 'req-1', performance.now(), {} as Generation);
    record.route = '/api/*';
    record.decision = 'public';
    const metrics = { countRequest: () => undefined } as unknown as GatewayMetrics;
    finishRequest(res, record, out, metrics);
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0] as string) as Record<string, unknown>;
  }

  function sink(lines: string[]) {
    return new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
  }

  it("is written to the logger's own destination, in pino's line format with the logger's bindings", () => {
    const lines: string[] = [];
    const log = createLogger({ name: 'gateway', destination: sink(lines) });
    const out = accessLineFor(log);
    expect(out.destination).toBeDefined();
    const line = lineThrough(out, lines);
    expect(line).toMatchObject({
      level: 30,
      name: 'gateway',
      reqId: 'req-1',
      route: '/api/*',
      status: 200,
      msg: 'request',
    });
    expect(typeof line['time']).toBe('number');
  });

  it('goes through the public logger, with the same fields, for a logger createLogger did not make', () => {
    const lines: string[] = [];
    const log = pino({ base: { name: 'gateway' } }, sink(lines));
    const out = accessLineFor(log);
    expect(out.destination).toBeUndefined();
    expect(lineThrough(out, lines)).toMatchObject({
      level: 30,
      name: 'gateway',
      reqId: 'req-1',
      route: '/api/*',
      status: 200,
      decision: 'public',
      msg: 'request',
    });
  });
});
