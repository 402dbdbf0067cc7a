import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pidOrder } from '../../../src/validation/address/dataset/pid-lookup.ts';

describe('the rows in pid order', () => {
  it('orders rows by pid number, ties by row, for any numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 2 ** 32 - 1 }), { minLength: 2, maxLength: 500 }), (values) => {
        const numbers = Uint32Array.from(values);
        const prefix = new Uint8Array(values.length).fill(1);
        const order = pidOrder(prefix, numbers);
        const expected = values.map((_v, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
        const sorted = values.every((v, i) => i === 0 || values[i - 1]! <= v);
        expect(order === null ? null : [...order]).toEqual(sorted ? null : expected);
      }),
      { numRuns: 300 },
    );
  });
});
