import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextStore } from '../../../src/validation/address/dataset/text-store.ts';

describe('the builder’s text store (site names, legal parcel ids)', () => {
  it('gives each value an id that reads it back, and 0 to an empty one', () => {
    const store = new TextStore();
    expect(store.append(null)).toBe(0);
    expect(store.append('')).toBe(0);
    const a = store.append('120/SP1199999');
    const b = store.append('Café Ōtautahi');
    const c = store.append('120/SP1199999');
    expect([a, b, c]).toEqual([1, 2, 3]);
    expect([store.get(a), store.get(b), store.get(c), store.get(0), store.get(4)]).toEqual([
      '120/SP1199999',
      'Café Ōtautahi',
      '120/SP1199999',
      null,
      null,
    ]);
    expect(store.find('Café Ōtautahi')).toBe(b);
    expect(store.size).toBe(4);
  });

  it('keeps every value of any text across its growth', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 3000 }), (values) => {
        const store = new TextStore();
        const ids = values.map((v) => store.append(v));
        values.forEach((v, i) => {
          expect(store.get(ids[i]!)).toBe(v === '' ? null : v);
        });
      }),
      { numRuns: 30 },
    );
  });
});
