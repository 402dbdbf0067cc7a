import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePolicyCursor } from '../../src/upstream/internal/policy-feed.ts';

describe("the policy feed's cursor parameter", () => {
  it('reads back every cursor the feed gives, and nothing for an empty one', () => {
    expect(parsePolicyCursor('')).toBeNull();
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{1,64}$/),
        fc.integer({ min: 0, max: 999_999_999_999_999 }),
        (epoch, seq) => {
          expect(parsePolicyCursor(`${epoch}.${seq}`)).toEqual({ epoch, seq });
        },
      ),
    );
  });

  it('answers any other string malformed or a cursor whose seq is a safe integer, never throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (raw) => {
        const parsed = parsePolicyCursor(raw);
        if (parsed === null) expect(raw).toBe('');
        else if (parsed !== 'malformed') expect(Number.isSafeInteger(parsed.seq) && parsed.seq >= 0).toBe(true);
      }),
    );
  });
});
