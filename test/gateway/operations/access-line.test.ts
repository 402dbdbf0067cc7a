import { describe, expect, it } from 'vitest';
import { millisJson } from '../../../src/gateway/server/access-log.ts';

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
