import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInput } from '#admin';
import { MAX_OVERLAP_MS, parseDuration } from '../../src/admin/input/duration.ts';
import { rotateSecretInput } from '../../src/admin/input/secret-rotation.ts';

const UNITS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;

describe('the overlap of a secret rotation', () => {
  it('reads 0 and whole numbers of d, h, m and s in that order', () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('30d')).toBe(MAX_OVERLAP_MS);
    expect(parseDuration('1d2h3m4s')).toBe(93_784_000);
  });

  it('reads any duration written with units in order as the sum of its parts', () => {
    const part = fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: undefined });
    fc.assert(
      fc.property(fc.tuple(part, part, part, part), (counts) => {
        const units = Object.keys(UNITS) as (keyof typeof UNITS)[];
        const text = counts.map((count, i) => (count === undefined ? '' : `${count}${units[i]}`)).join('');
        fc.pre(text !== '');
        const expected = counts.reduce<number>((sum, count, i) => sum + (count ?? 0) * UNITS[units[i]!], 0);
        expect(parseDuration(text)).toBe(expected);
      }),
    );
  });

  it('answers any other text with a sentence, never a number and never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const parsed = parseDuration(text);
        if (typeof parsed === 'number') expect(text).toMatch(/^(0|(\d+d)?(\d+h)?(\d+m)?(\d+s)?)$/);
        else expect(parsed).toMatch(/^expected a duration such as 24h/);
      }),
    );
  });

  it('defaults to 24 h, refuses over 30 days, and names the field', () => {
    expect(parseInput(rotateSecretInput, {})).toEqual({ overlapMs: 86_400_000 });
    expect(parseInput(rotateSecretInput, { overlap: '0' })).toEqual({ overlapMs: 0 });
    expect(parseInput(rotateSecretInput, { overlap: '720h' })).toEqual({ overlapMs: MAX_OVERLAP_MS });
    const refusal = (body: unknown) => {
      try {
        parseInput(rotateSecretInput, body);
      } catch (error) {
        return { kind: (error as { kind: string }).kind, message: (error as Error).message };
      }
      return 'accepted';
    };
    expect(refusal({ overlap: '30d1s' })).toEqual({
      kind: 'invalid_input',
      message: 'overlap: at most 30 days (30d), not "30d1s"',
    });
    expect(refusal({ overlap: '-1h' })).toEqual({
      kind: 'invalid_input',
      message: 'overlap: expected a duration such as 24h, 90m, 1h30m, 45s or 7d, or 0, not "-1h"',
    });
    expect(refusal({ overlap: 3600 })).toEqual({
      kind: 'invalid_input',
      message: 'overlap: must be a string such as "24h"',
    });
    expect(refusal({ overlap: 'x'.repeat(33) })).toMatchObject({
      message: expect.stringContaining('at most 32 characters'),
    });
    expect(refusal([])).toEqual({ kind: 'invalid_input', message: 'body must be a JSON object' });
  });
});
