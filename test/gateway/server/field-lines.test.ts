import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldLines } from '../../../src/gateway/server/field-lines.ts';

/** A raw header list (name, value, name, value…) as Node hands it over. */
const rawHeaders = (names: readonly string[]): string[] => names.flatMap((name) => [name, 'v']);

describe('fieldLines: how many lines of one field a request had', () => {
  it('counts every spelling of the name and stops at two', () => {
    expect(fieldLines(rawHeaders(['Host', 'Accept']), 'host', 'Host')).toBe(1);
    expect(fieldLines(rawHeaders(['authorization', 'AUTHORIZATION']), 'authorization', 'Authorization')).toBe(2);
    expect(
      fieldLines(
        rawHeaders(['AuThOrIzAtIoN', 'x', 'Authorization', 'authorization']),
        'authorization',
        'Authorization',
      ),
    ).toBe(2);
    expect(fieldLines(rawHeaders(['Authorisation', 'X-Authorization']), 'authorization', 'Authorization')).toBe(0);
  });

  it('agrees with counting lower-cased names, capped at two, for any list of names (property-based)', () => {
    const name = fc.oneof(
      fc.constantFrom(
        'Authorization',
        'authorization',
        'AUTHORIZATION',
        'aUTHORIZATION',
        'Host',
        'host',
        'Authorizatio',
      ),
      fc.string({ maxLength: 14 }),
    );
    fc.assert(
      fc.property(fc.array(name, { maxLength: 12 }), (names) => {
        const expected = Math.min(2, names.filter((n) => n.toLowerCase() === 'authorization').length);
        expect(fieldLines(rawHeaders(names), 'authorization', 'Authorization')).toBe(expected);
      }),
    );
  });
});
