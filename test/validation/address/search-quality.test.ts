import { describe, expect, it } from 'vitest';
import { address, addressApi, completionsOf, datasetOf, knownAddresses } from './fixtures.ts';

const api = addressApi(datasetOf(knownAddresses()));

async function top(q: string, extra: Record<string, string> = {}): Promise<string[]> {
  return completionsOf(await api.autocomplete({ q, ...extra })).map((c) => c.full_address);
}

describe('address search quality', () => {
  it('puts the exact number, street and locality first, before units and neighbours', async () => {
    const results = await top('14 Smith Street Ryde');
    expect(results[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect(results.indexOf('14 Smith Street, NORTH RYDE NSW 2113')).toBeGreaterThan(
      results.indexOf('Unit 2, 14 Smith Street, RYDE NSW 2112'),
    );
  });

  it('matches words in any order', async () => {
    expect((await top('ryde smith street 14'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect((await top('Ryde 14 Smith St'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
  });

  it('completes the word being typed as a prefix', async () => {
    const results = await top('14 smi');
    expect(results).toContain('14 Smith Street, RYDE NSW 2112');
    expect(results).toContain('14 Smith Road, RYDE NSW 2112');
  });

  it('ranks an exact word above a prefix of a longer one', async () => {
    const results = await top('3 smith');
    expect(results[0]).toBe('3 Smithfield Road, RYDE NSW 2112');
    expect(results.slice(1).filter((r) => r.startsWith('3 '))).toEqual([]);
    expect((await top('smith rd'))[0]).toBe('14 Smith Road, RYDE NSW 2112');
  });

  // Regression: q was trimmed first, so "smith " still offered Smithfield as if "smith" were unfinished.
  it('takes a trailing space, like a trailing comma, as the end of the last word', async () => {
    const results = await top('3 smith ');
    expect(results).not.toContain('3 Smithfield Road, RYDE NSW 2112');
    expect(results[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect(results).toEqual(await top('3 smith,'));
  });

  it('tolerates one typo (swap, missing, extra or wrong letter)', async () => {
    expect((await top('14 smtih st ryde'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect((await top('7 katomba st'))[0]).toBe('7 Katoomba Street, KATOOMBA NSW 2780');
    expect((await top('25 atchisonn st'))[0]).toBe('Level 3, 25 Atchison Street, ST LEONARDS NSW 2065');
    expect((await top('5 victorja st st kilda'))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
  });

  it('prefers an exact spelling over a typo neighbour', async () => {
    expect((await top('smith st ryde'))[0]).toMatch(/Smith Street, RYDE/);
  });

  it('expands street-type and state abbreviations both ways', async () => {
    expect((await top('14 smith rd ryde'))[0]).toBe('14 Smith Road, RYDE NSW 2112');
    expect((await top('14 smith road ryde'))[0]).toBe('14 Smith Road, RYDE NSW 2112');
    expect(await top('8 george st new south wales')).toEqual(['8 George Street, PARRAMATTA NSW 2150']);
    expect((await top('5 victoria st victoria'))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
    expect((await top('5 victoria street saint kilda'))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
    expect((await top('3 mount st mt druitt'))[0]).toBe('3 Mount Street, MOUNT DRUITT NSW 2770');
  });

  it('reads unit and number in the slash, keyword and two-number forms', async () => {
    for (const q of [
      '2/14 Smith St Ryde',
      'Unit 2 14 Smith Street Ryde',
      'u2 14 smith st ryde',
      '2 14 smith st ryde',
    ]) {
      expect((await top(q))[0]).toBe('Unit 2, 14 Smith Street, RYDE NSW 2112');
    }
    expect((await top('2/21 kent rd dapto'))[0]).toBe('Unit 2, 21 Kent Road, DAPTO NSW 2530');
  });

  it('reads levels and lots', async () => {
    expect(await top('Level 3 25 Atchison St')).toEqual(['Level 3, 25 Atchison Street, ST LEONARDS NSW 2065']);
    expect(await top('Lot 12 Kent Rd Dapto')).toEqual(['Lot 12 Kent Road, DAPTO NSW 2530']);
  });

  it('finds a number inside a ranged address and its alias', async () => {
    const results = await top('13 neville st ryde');
    expect(results).toContain('13 Neville Street, RYDE NSW 2112');
    expect(results).toContain('11-15 Neville Street, RYDE NSW 2112');
  });

  it('treats a trailing four-digit number as the postcode', async () => {
    expect(await top('14 smith st 2113')).toEqual(['14 Smith Street, NORTH RYDE NSW 2113']);
    expect((await top('2112'))[0]).toMatch(/NSW 2112$/);
  });

  it('finds post boxes by type and number, and lists streets before boxes otherwise', async () => {
    expect((await top('PO Box 12 Ryde'))[0]).toBe('PO Box 12, RYDE NSW 2112');
    expect((await top('gpo box 1500'))[0]).toBe('GPO Box 1500, SYDNEY NSW 2001');
    const ryde = await top('ryde', { max: '100' });
    expect(ryde.at(-1)).toBe('PO Box 12, RYDE NSW 2112');
  });

  it('returns nothing rather than a wrong answer when a word matches no address', async () => {
    expect(await top('14 zzyzx st')).toEqual([]);
  });
});

describe('address search quality: levels without a number', () => {
  it('reads "Ground" (and "Ground Floor") as the level of a unit', async () => {
    const ground = addressApi(
      datasetOf([
        address('Pine Road', 'KEW', 'VIC', '3101', {
          numberFirst: '6',
          flatType: 'Unit',
          flat: '4',
          levelType: 'Ground',
        }),
        address('Pine Road', 'KEW', 'VIC', '3101', {
          numberFirst: '6',
          flatType: 'Unit',
          flat: '4',
          levelType: 'Level',
          level: '1',
        }),
      ]),
    );
    for (const q of ['Unit 4, Ground, 6 Pine Road, KEW VIC 3101', 'unit 4 ground floor 6 pine rd kew']) {
      expect(completionsOf(await ground.autocomplete({ q })).map((c) => c.full_address)).toEqual([
        'Unit 4, Ground, 6 Pine Road, KEW VIC 3101',
      ]);
    }
  });
});

describe('address search quality: exact, then prefix, then typo', () => {
  const spelled = addressApi(
    datasetOf([
      address('Smyth Street', 'RYDE', 'NSW', '2112', { numberFirst: '5' }),
      address('Smith Street', 'RYDE', 'NSW', '2112', { numberFirst: '5' }),
      address('Smithers Street', 'RYDE', 'NSW', '2112', { numberFirst: '5' }),
    ]),
  );
  const order = async (q: string): Promise<string[]> =>
    completionsOf(await spelled.autocomplete({ q })).map((c) => c.full_address);

  it('orders the exact word, then the longer word it begins, then the one-typo neighbour', async () => {
    expect(await order('5 ryde st smith')).toEqual([
      '5 Smith Street, RYDE NSW 2112',
      '5 Smithers Street, RYDE NSW 2112',
      '5 Smyth Street, RYDE NSW 2112',
    ]);
    expect((await order('5 smyth st ryde'))[0]).toBe('5 Smyth Street, RYDE NSW 2112');
  });

  it('looks for typo neighbours only when exact and prefix matches leave room', async () => {
    expect(await spelled.autocomplete({ q: '5 ryde st smith', max: '2' })).toMatchObject({
      body: {
        completions: [
          { full_address: '5 Smith Street, RYDE NSW 2112' },
          { full_address: '5 Smithers Street, RYDE NSW 2112' },
        ],
      },
    });
  });
});
