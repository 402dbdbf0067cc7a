import { describe, expect, it } from 'vitest';
import { address, addressApi, datasetOf, knownAddresses } from './fixtures.ts';

const api = addressApi(datasetOf(knownAddresses()));

interface Verified {
  matched: boolean;
  success: boolean;
  address?: Record<string, string | null>;
}

async function verify(params: Record<string, string>): Promise<Verified> {
  const response = await api.verification(params);
  expect(response.status).toBe(200);
  return response.body as Verified;
}

const DOCUMENTED_FIELDS = [
  'id',
  'full_address',
  'canonical_address',
  'canonical_address_id',
  'address_line_1',
  'address_line_2',
  'address_line_combined',
  'locality_name',
  'state_territory',
  'postcode',
  'box_identifier',
  'box_type',
  'street_number_1',
  'street_number_2',
  'unit_identifier',
  'unit_type',
  'level_number',
  'level_type',
  'lot_identifier',
  'site_name',
  'street_name',
  'street_type',
  'street_suffix',
  'street',
  'supplementary',
  'parcel_locker_type',
  'parcel_locker_identifier',
];

describe('GET /api/au/address/v2/verification', () => {
  it('matches a complete address and answers every documented field, null where empty', async () => {
    const body = await verify({ q: 'Level 3, 25 Atchison Street, St Leonards NSW 2065', format: 'json' });
    expect(body.matched).toBe(true);
    expect(body.success).toBe(true);
    expect(Object.keys(body.address!).sort()).toEqual([...DOCUMENTED_FIELDS].sort());
    expect(body.address).toMatchObject({
      full_address: 'Level 3, 25 Atchison Street, ST LEONARDS NSW 2065',
      address_line_1: 'Level 3',
      address_line_2: '25 Atchison Street',
      address_line_combined: 'Level 3, 25 Atchison Street',
      locality_name: 'ST LEONARDS',
      state_territory: 'NSW',
      postcode: '2065',
      level_type: 'Level',
      level_number: '3',
      street_number_1: '25',
      street_number_2: null,
      street_name: 'Atchison',
      street_type: 'Street',
      street: 'Atchison Street',
      unit_identifier: null,
      box_type: null,
    });
  });

  it('tolerates a typo and abbreviations in a full address', async () => {
    expect((await verify({ q: '14 Smtih St, Ryde NSW 2112' })).address?.full_address).toBe(
      '14 Smith Street, RYDE NSW 2112',
    );
  });

  it('verifies an alias to itself and names its canonical address', async () => {
    const body = await verify({ q: '13 Neville St Ryde NSW 2112' });
    expect(body.address).toMatchObject({
      full_address: '13 Neville Street, RYDE NSW 2112',
      canonical_address: '11-15 Neville Street, RYDE NSW 2112',
    });
    expect(body.address!.canonical_address_id).not.toBe(body.address!.id);
  });

  it('answers 200 matched:false (no address) for an address that does not exist', async () => {
    for (const q of ['99 Smith Street Ryde NSW 2112', 'Smith Street Ryde', '14 Smith Street', '1 Nowhere Road Ryde']) {
      expect(await verify({ q })).toEqual({ matched: false, success: true });
    }
  });

  it('matches the unit named in the slash and keyword forms', async () => {
    expect((await verify({ q: '2/21 Kent Road Dapto NSW 2530' })).address?.unit_identifier).toBe('2');
    expect((await verify({ q: 'Unit 2 21 Kent Rd Dapto' })).address?.unit_type).toBe('Unit');
  });

  // Regression: with only levels at 25 Atchison Street, a query naming no level matched Level 3.
  it('answers matched:false when the address is one of several levels and the query names none, as for units', async () => {
    expect(await verify({ q: '25 Atchison Street, St Leonards NSW 2065' })).toEqual({ matched: false, success: true });
    expect((await verify({ q: 'Level 4, 25 Atchison Street, St Leonards NSW 2065' })).address?.full_address).toBe(
      'Level 4, 25 Atchison Street, ST LEONARDS NSW 2065',
    );
    expect((await verify({ q: 'L4 25 Atchison St St Leonards' })).address?.level_number).toBe('4');
  });

  it('verifies a unit on a level named by its unit alone', async () => {
    const tower = addressApi(
      datasetOf([
        address('Kent Street', 'SYDNEY', 'NSW', '2000', {
          numberFirst: '100',
          flatType: 'Unit',
          flat: '502',
          levelType: 'Level',
          level: '5',
        }),
        address('Kent Street', 'SYDNEY', 'NSW', '2000', {
          numberFirst: '100',
          flatType: 'Unit',
          flat: '601',
          levelType: 'Level',
          level: '6',
        }),
      ]),
    );
    const body = (await tower.verification({ q: '502/100 Kent St Sydney NSW 2000' })).body as Verified;
    expect(body.address).toMatchObject({ unit_identifier: '502', level_number: '5' });
  });

  it('verifies post boxes, and leaves them out with post_box=0 or paf=0', async () => {
    const box = await verify({ q: 'PO Box 12, Ryde NSW 2112' });
    expect(box.address).toMatchObject({ box_type: 'PO Box', box_identifier: '12', address_line_1: 'PO Box 12' });
    expect(await verify({ q: 'PO Box 12, Ryde NSW 2112', post_box: '0' })).toEqual({ matched: false, success: true });
    expect(await verify({ q: 'PO Box 12, Ryde NSW 2112', paf: '0' })).toEqual({ matched: false, success: true });
  });

  it('adds latitude and longitude as strings only with gps=1', async () => {
    expect((await verify({ q: '14 Smith St Ryde 2112' })).address).not.toHaveProperty('latitude');
    const body = await verify({ q: '14 Smith St Ryde 2112', gps: '1' });
    expect(body.address).toMatchObject({ latitude: '-33.800000', longitude: '151.100000' });
  });

  it('adds gnaf_id and the other extended fields only with extended=1', async () => {
    const body = await verify({ q: '11-15 Neville St Ryde 2112', extended: '1' });
    expect(body.address).toMatchObject({
      gnaf_id: 'GANSW716000001',
      lga_name: null,
      lga_type_code: null,
      legal_parcel_id: null,
    });
  });

  // Regression: census was ignored, so census=2016 answered no meshblock, sa1_id or sa2_id at all.
  it('adds meshblock, sa1_id and sa2_id (null: not held) only with a census year', async () => {
    expect((await verify({ q: '14 Smith St Ryde 2112' })).address).not.toHaveProperty('meshblock');
    expect((await verify({ q: '14 Smith St Ryde 2112', census: '' })).address).not.toHaveProperty('meshblock');
    for (const census of ['2016', '2021']) {
      const body = await verify({ q: '14 Smith St Ryde 2112', census });
      expect(body.address).toMatchObject({ meshblock: null, sa1_id: null, sa2_id: null });
    }
  });

  it('refuses a census that is not a year with 1000, as every other malformed parameter', async () => {
    for (const census of ['abc', '16', '2016.5', '20160']) {
      const response = await api.verification({ q: '14 Smith St Ryde 2112', census });
      expect({ census, status: response.status, body: response.body }).toEqual({
        census,
        status: 400,
        body: {
          completions: [],
          message: 'Census must be a census year, e.g. 2016',
          error_code: '1000',
          success: false,
        },
      });
    }
  });

  // Regression: street carried the suffix ("Kookaburra Street South"), where the API's street is the
  // name plus type; a client joining street and street_suffix got the suffix twice.
  it('answers street as the name plus type, the suffix only in street_suffix and the address lines', async () => {
    const suffixed = addressApi(
      datasetOf([address('Kookaburra Street', 'ASHFIELD', 'NSW', '2131', { numberFirst: '5', streetSuffix: 'South' })]),
    );
    const body = (await suffixed.verification({ q: '5 Kookaburra Street South, Ashfield NSW 2131' })).body as Verified;
    expect(body.address).toMatchObject({
      full_address: '5 Kookaburra Street South, ASHFIELD NSW 2131',
      address_line_1: '5 Kookaburra Street South',
      street_name: 'Kookaburra',
      street_type: 'Street',
      street_suffix: 'South',
      street: 'Kookaburra Street',
    });
    const id = (await suffixed.autocomplete({ q: '5 kookaburra st south' })).body as { completions: { id: string }[] };
    expect((await suffixed.metadata({ id: id.completions[0]!.id })).body).toMatchObject({
      street: 'Kookaburra Street',
      street_suffix: 'South',
    });
  });

  it('filters by state_codes', async () => {
    expect((await verify({ q: '8 George St Parramatta NSW', state_codes: 'NSW' })).matched).toBe(true);
    expect((await verify({ q: '8 George St Parramatta NSW', state_codes: 'QLD' })).matched).toBe(false);
  });

  it('rejects parameter errors with 1000 naming the parameter', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'Q can not be blank'],
      [{ q: '1 Smith St', gnaf: '0', paf: '0' }, 'Gnaf or paf must be 1'],
      [{ q: '1 Smith St', gnaf: 'maybe' }, 'Gnaf must be 0 or 1'],
      [{ q: '1 Smith St', gps: '2' }, 'Gps must be 0 or 1'],
      [{ q: '1 Smith St', state_codes: 'NZ' }, 'State codes contains an unknown state: NZ'],
      [{ q: '1 Smith St', format: 'xml' }, 'Format must be json'],
    ];
    for (const [params, message] of cases) {
      const response = await api.verification(params);
      expect(response).toEqual({ status: 400, body: { completions: [], message, error_code: '1000', success: false } });
    }
  });
});
