import { describe, expect, it } from 'vitest';
import { address, addressApi, completionsOf, datasetOf } from './fixtures.ts';

const sydney = (n: string, patch = {}) =>
  address('George Street', 'SYDNEY', 'NSW', '2000', { numberFirst: n, ...patch });
const northSydney = (n: string) => address('George Street', 'NORTH SYDNEY', 'NSW', '2060', { numberFirst: n });

/** George Street, SYDNEY has no 1 (as in the default sample, where it has only even numbers). */
const api = addressApi(
  datasetOf([
    sydney('2'),
    sydney('4'),
    sydney('6'),
    sydney('8'),
    sydney('10'),
    sydney('10', { flatType: 'Unit', flat: '1' }),
    sydney('10', { flatType: 'Unit', flat: '2' }),
    sydney('12'),
    sydney('18'),
    sydney('20'),
    sydney('36'),
    sydney('100'),
    northSydney('5'),
    northSydney('7'),
    address('Pitt Street', 'SYDNEY', 'NSW', '2000', { numberFirst: '1' }),
    address('Smith Street', 'RYDE', 'NSW', '2112', { numberFirst: '9' }),
    address('Smyth Street', 'RYDE', 'NSW', '2112', { numberFirst: '8' }),
    address('Smyth Street', 'RYDE', 'NSW', '2112', { numberFirst: '10' }),
  ]),
);

async function top(q: string, max = '20'): Promise<string[]> {
  return completionsOf(await api.autocomplete({ q, max })).map((c) => c.full_address);
}

describe('address autocomplete when the typed house number is not on the street', () => {
  it('lists the street: numbers starting with the typed digits, then the nearest, then units, then the next street', async () => {
    expect(await top('1 George St Sydney')).toEqual([
      '10 George Street, SYDNEY NSW 2000',
      '12 George Street, SYDNEY NSW 2000',
      '18 George Street, SYDNEY NSW 2000',
      '100 George Street, SYDNEY NSW 2000',
      '2 George Street, SYDNEY NSW 2000',
      '4 George Street, SYDNEY NSW 2000',
      '6 George Street, SYDNEY NSW 2000',
      '8 George Street, SYDNEY NSW 2000',
      '20 George Street, SYDNEY NSW 2000',
      '36 George Street, SYDNEY NSW 2000',
      'Unit 1, 10 George Street, SYDNEY NSW 2000',
      'Unit 2, 10 George Street, SYDNEY NSW 2000',
      '5 George Street, NORTH SYDNEY NSW 2060',
      '7 George Street, NORTH SYDNEY NSW 2060',
    ]);
  });

  it('lists the nearest numbers, the lower first on a tie, when none starts with the typed digits', async () => {
    expect(await top('7 George St Sydney', '5')).toEqual([
      '7 George Street, NORTH SYDNEY NSW 2060',
      '6 George Street, SYDNEY NSW 2000',
      '8 George Street, SYDNEY NSW 2000',
      '4 George Street, SYDNEY NSW 2000',
      '10 George Street, SYDNEY NSW 2000',
    ]);
  });

  it('keeps an exact number first, on this street or on another that matches every word', async () => {
    expect((await top('12 George St Sydney'))[0]).toBe('12 George Street, SYDNEY NSW 2000');
    expect(await top('12 George St Sydney')).not.toContain('2 George Street, SYDNEY NSW 2000');
    expect((await top('5 George St Sydney'))[0]).toBe('5 George Street, NORTH SYDNEY NSW 2060');
  });

  it("finds the typed number on a one-letter-off street before listing the named street's other numbers", async () => {
    expect(await top('9 smyth st ryde', '2')).toEqual([
      '9 Smith Street, RYDE NSW 2112',
      '8 Smyth Street, RYDE NSW 2112',
    ]);
  });

  it('lists other numbers only on a street the query named, not on every street of the suburb', async () => {
    expect(await top('1 sydney')).toEqual(['1 Pitt Street, SYDNEY NSW 2000']);
  });

  it('still does not verify an address whose number the street lacks', async () => {
    expect((await api.verification({ q: '1 George St Sydney NSW 2000' })).body).toEqual({
      matched: false,
      success: true,
    });
    expect((await api.verification({ q: '7 George St Sydney NSW 2000' })).body).toMatchObject({ matched: false });
    expect((await api.verification({ q: '10 George St Sydney NSW 2000' })).body).toMatchObject({ matched: true });
  });
});
