import { describe, expect, it } from 'vitest';
import { address, addressApi, completionsOf, datasetOf, knownAddresses } from './fixtures.ts';

const api = addressApi(
  datasetOf([
    ...knownAddresses(),
    address('Pitt Lane', 'GLEBE', 'NSW', '2037', { numberFirst: '9' }),
    address('Ann Street', 'GLEBE', 'NSW', '2037', { numberFirst: '4' }),
    address('Hill Street', 'GLEBE', 'NSW', '2037', { numberFirst: '6' }),
  ]),
);

async function top(q: string): Promise<string[]> {
  return completionsOf(await api.autocomplete({ q })).map((c) => c.full_address);
}

async function verified(q: string): Promise<string | null> {
  const body = (await api.verification({ q })).body as { matched: boolean; address?: { full_address: string } };
  return body.matched ? body.address!.full_address : null;
}

describe('address search: ordinary mistakes that used to find nothing', () => {
  it('reads a number run into the street name ("85lake St")', async () => {
    expect((await top('14smith st ryde'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect((await top('2/14smith st ryde'))[0]).toBe('Unit 2, 14 Smith Street, RYDE NSW 2112');
    expect(await verified('14smith st ryde')).toBe('14 Smith Street, RYDE NSW 2112');
  });

  it('reads a state run into the postcode ("NSW2112")', async () => {
    expect((await top('14 smith st ryde nsw2112'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect(await top('14 smith st nsw2113')).toEqual(['14 Smith Street, NORTH RYDE NSW 2113']);
  });

  it('ignores the country pasted after the address', async () => {
    expect((await top('14 Smith St, Ryde NSW 2112, Australia'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    expect(await verified('14 Smith Street, Ryde NSW 2112, Australia')).toBe('14 Smith Street, RYDE NSW 2112');
  });

  it('tolerates a wrong, missing, extra or swapped first letter', async () => {
    for (const q of ['5 pictoria st st kilda', '5 ictoria st st kilda', '5 xvictoria st st kilda', '5 ivctoria st']) {
      expect((await top(q))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
    }
    expect((await top('5 victoria st st kolda'))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
    expect((await top('5 victoria st st ki'))[0]).toBe('5 Victoria Street, ST KILDA VIC 3182');
    expect((await top('7 matoomba st katoom'))[0]).toBe('7 Katoomba Street, KATOOMBA NSW 2780');
  });

  it('tolerates a letter dropped from a short word, or a doubled one undoubled ("Pit Ln", "Hil St", "An St")', async () => {
    expect((await top('9 pit ln glebe'))[0]).toBe('9 Pitt Lane, GLEBE NSW 2037');
    expect((await top('6 hil st glebe'))[0]).toBe('6 Hill Street, GLEBE NSW 2037');
    expect((await top('4 an st glebe'))[0]).toBe('4 Ann Street, GLEBE NSW 2037');
    expect((await top('21 ken rd dapto'))[0]).toBe('21 Kent Road, DAPTO NSW 2530');
    expect((await top('6 ill st glebe'))[0]).toBe('6 Hill Street, GLEBE NSW 2037');
    expect(await verified('9 pit lane glebe')).toBe('9 Pitt Lane, GLEBE NSW 2037');
  });

  it('looks for a dropped letter in short words only, not in short numbers ("211 " is no postcode 2112)', async () => {
    expect(await top('211 ')).toEqual([]);
  });

  it('offers the street of a wrong type in the named locality, after the street of the typed type', async () => {
    expect((await top('9 pitt street glebe'))[0]).toBe('9 Pitt Lane, GLEBE NSW 2037');
    expect((await top('3 mount rd mount druitt'))[0]).toBe('3 Mount Street, MOUNT DRUITT NSW 2770');
    expect((await top('14 smith ave 2112'))[0]).toBe('14 Smith Street, RYDE NSW 2112');
    const road = await top('14 smith road ryde');
    expect(road[0]).toBe('14 Smith Road, RYDE NSW 2112');
    expect(road).toContain('14 Smith Street, RYDE NSW 2112');
  });

  it('tolerates a wrong street type only where the query names the locality or postcode', async () => {
    expect(await top('25 atchison road')).toEqual([]);
    expect((await top('25 atchison road st leonards'))[0]).toMatch(/25 Atchison Street, ST LEONARDS/);
  });

  it('highlights a word matched through a first-letter typo or a dropped letter', async () => {
    const lit = async (q: string): Promise<string | undefined> =>
      completionsOf(await api.autocomplete({ q, highlight: '1' }))[0]?.highlighted_full_address;
    expect(await lit('5 pictoria st st kilda')).toContain("<span class='af_hl'>Victoria</span>");
    expect(await lit('9 pit ln glebe')).toContain("<span class='af_hl'>Pitt</span>");
  });

  it('does not verify an address whose street type the query got wrong', async () => {
    expect(await verified('9 Pitt Street, Glebe NSW 2037')).toBeNull();
    expect(await verified('9 Pitt Lane, Glebe NSW 2037')).toBe('9 Pitt Lane, GLEBE NSW 2037');
  });
});

describe('address search: a locality whose name holds a unit word', () => {
  const api = addressApi(
    datasetOf([
      address('William Street', 'BRIGHTON FLAT', 'VIC', '3185', { numberFirst: '6' }),
      address('William Street', 'BRIGHTON', 'VIC', '3186', { numberFirst: '6' }),
      address('William Street', 'BRIGHTON', 'VIC', '3186', { numberFirst: '6', flatType: 'Flat', flat: '2' }),
    ]),
  );
  const top = async (q: string): Promise<string | undefined> =>
    completionsOf(await api.autocomplete({ q }))[0]?.full_address;

  it('reads "Flat 6" typed after the suburb as the suburb and the number when no flat 6 exists', async () => {
    expect(await top('Brighton Flat 6 William St')).toBe('6 William Street, BRIGHTON FLAT VIC 3185');
  });

  it('still reads a flat typed before the street as the flat', async () => {
    expect(await top('flat 2 6 william st brighton')).toBe('Flat 2, 6 William Street, BRIGHTON VIC 3186');
    expect(await top('Brighton Flat 2 6 William St')).toBe('Flat 2, 6 William Street, BRIGHTON VIC 3186');
  });
});
