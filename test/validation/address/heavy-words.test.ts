import { describe, expect, it } from 'vitest';
import type { AddressInput } from '../../../src/validation/address/dataset/address-input.ts';
import { address, addressApi, completionsOf, datasetOf } from './fixtures.ts';

/**
 * A word that names thousands of streets (at national scale "thomas", or a one-letter prefix)
 * is looked for in the largest of them only, so such a query costs the same at any size.
 * Here 3,000 one-address Thomas Streets, each in a suburb of its own, and one long one, among
 * 30,000 other streets (so "thomas" names a tenth of them, as a common name does).
 */
function manyThomasStreets(): AddressInput[] {
  const out: AddressInput[] = [];
  for (let i = 0; i < 3000; i++) {
    const letter = (n: number): string => String.fromCharCode(65 + (n % 26));
    const suburb = `${letter(i)}${letter(Math.floor(i / 26))}${letter(Math.floor(i / 676))}VILLE`;
    const numberFirst = i === 2999 ? '7' : '3';
    out.push(address('Thomas Street', suburb, 'NSW', String(2000 + (i % 500)), { numberFirst }));
  }
  for (let n = 1; n <= 400; n++)
    out.push(address('Thomas Street', 'LONGTOWN', 'VIC', '3999', { numberFirst: String(n) }));
  for (let n = 1; n <= 300; n++)
    out.push(address('Station Road', 'LONGTOWN', 'VIC', '3999', { numberFirst: String(n) }));
  const letter = (n: number): string => String.fromCharCode(65 + (n % 26));
  for (let i = 0; i < 30_000; i++) {
    const name = `${letter(i)}${letter(Math.floor(i / 26))}${letter(Math.floor(i / 676))}${letter(Math.floor(i / 17_576))}`;
    out.push(address('Filler Road', `${name}TON`, 'QLD', '4000', { numberFirst: '1' }));
  }
  return out;
}

describe('words that name thousands of streets', () => {
  const api = addressApi(datasetOf(manyThomasStreets()));

  it('finds a number in the largest street a common word names', async () => {
    expect(completionsOf(await api.autocomplete({ q: '282 thomas' }))[0]).toMatchObject({
      full_address: '282 Thomas Street, LONGTOWN VIC 3999',
    });
  });

  it('finds a number in the largest streets a one-letter prefix names', async () => {
    const full = completionsOf(await api.autocomplete({ q: '250 s', max: '10' })).map((c) => c.full_address);
    expect(full).toContain('250 Station Road, LONGTOWN VIC 3999');
  });

  it('does not look in every small street a common word names, but finds it with its suburb', async () => {
    // The one 7 Thomas Street is in the 3,000th suburb, a one-address street ranked last.
    const unplaced = completionsOf(await api.autocomplete({ q: '7 thomas', max: '10' })).map((c) => c.full_address);
    expect(unplaced).not.toContain('7 Thomas Street, JLEVILLE NSW 2499');
    expect(completionsOf(await api.autocomplete({ q: '7 thomas jleville' }))[0]).toMatchObject({
      full_address: '7 Thomas Street, JLEVILLE NSW 2499',
    });
  });

  it('finds it too when the query names its postcode instead of its suburb', async () => {
    expect(completionsOf(await api.autocomplete({ q: '7 thomas st 2499' }))[0]).toMatchObject({
      full_address: '7 Thomas Street, JLEVILLE NSW 2499',
    });
  });

  it('still finds any of those streets once the suburb is named', async () => {
    expect(completionsOf(await api.autocomplete({ q: '3 thomas st qdbville' }))[0]).toMatchObject({
      full_address: '3 Thomas Street, QDBVILLE NSW 2270',
    });
  });
});

describe('two words that each name thousands of streets', () => {
  // 3,000 Forest Roads and 3,000 streets in FAIR… suburbs, each of one address, among 30,000
  // others; one Forest Road in FAIRFORD, ranked last of both.
  const letter = (n: number): string => String.fromCharCode(65 + (n % 26));
  const name = (i: number): string => `${letter(i)}${letter(Math.floor(i / 26))}${letter(Math.floor(i / 676))}`;
  const inputs: AddressInput[] = [];
  for (let i = 0; i < 3000; i++) {
    inputs.push(address('Forest Road', `${name(i)}TON`, 'NSW', '2000', { numberFirst: '3' }));
    inputs.push(address(`${name(i)}ley Street`, `FAIR${name(i)}`, 'VIC', '3000', { numberFirst: '3' }));
  }
  inputs.push(address('Forest Road', 'FAIRFORD', 'NSW', '2237', { numberFirst: '3' }));
  for (let i = 0; i < 30_000; i++) {
    inputs.push(
      address('Filler Road', `${name(i)}${letter(Math.floor(i / 17_576))}VILLE`, 'QLD', '4000', { numberFirst: '1' }),
    );
  }
  const api = addressApi(datasetOf(inputs));

  it('finds the street both name, however small', async () => {
    expect(completionsOf(await api.autocomplete({ q: '3 forest rd fair' }))[0]).toMatchObject({
      full_address: '3 Forest Road, FAIRFORD NSW 2237',
    });
  });
});
