import { describe, expect, it } from 'vitest';
import { LOCALITIES } from '../../../src/validation/address/data/localities.ts';
import { LANDMARK_STREETS, STREET_NAMES } from '../../../src/validation/address/data/street-names.ts';
import { STATE_CODES } from '../../../src/validation/address/data/vocabulary.ts';

describe('the sample generator tables, read from their data files', () => {
  it('holds every locality of localities.csv, in file order, in every state', () => {
    expect(LOCALITIES).toHaveLength(329);
    expect(LOCALITIES[0]).toEqual({
      name: 'SYDNEY',
      state: 'NSW',
      postcode: '2000',
      latitude: -33.87,
      longitude: 151.208,
      weight: 6,
    });
    expect(LOCALITIES.at(-1)).toMatchObject({ name: 'CHRISTMAS ISLAND', state: 'OT', postcode: '6798' });
    expect(new Set(LOCALITIES.map((l) => l.state))).toEqual(new Set(STATE_CODES));
    expect(LOCALITIES.filter((l) => l.name === 'RICHMOND').map((l) => l.state)).toEqual(['NSW', 'VIC']);
  });

  it('keeps the postcodes of the NT as four digits', () => {
    expect(LOCALITIES.find((l) => l.name === 'DARWIN CITY')?.postcode).toBe('0800');
  });

  it('holds each street name of street-names.txt once, apostrophes kept', () => {
    expect(STREET_NAMES).toHaveLength(303);
    expect(new Set(STREET_NAMES).size).toBe(STREET_NAMES.length);
    expect(STREET_NAMES.slice(0, 2)).toEqual(['George', 'Pitt']);
    expect(STREET_NAMES).toContain("O'Connell");
  });

  it('lays landmark streets out only in localities the table holds, in file order', () => {
    const known = new Set(LOCALITIES.map((l) => `${l.name} ${l.state}`));
    expect(Object.keys(LANDMARK_STREETS).filter((key) => !known.has(key))).toEqual([]);
    expect(LANDMARK_STREETS['DAPTO NSW']).toEqual(['Kent Road', 'Princes Highway']);
    expect(Object.values(LANDMARK_STREETS).flat()).toHaveLength(96);
  });
});
