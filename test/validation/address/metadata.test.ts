import { describe, expect, it } from 'vitest';
import { addressApi, completionsOf, datasetOf, knownAddresses } from './fixtures.ts';

const api = addressApi(datasetOf(knownAddresses()));

const NOT_FOUND = {
  status: 404,
  body: {
    completions: [],
    message: 'The record you are trying to load does not exist',
    error_code: '1011',
    success: false,
  },
};

async function idOf(q: string): Promise<string> {
  return completionsOf(await api.autocomplete({ q }))[0]!.id;
}

describe('GET /api/au/address/metadata', () => {
  it('loads the record behind an autocomplete id as a flat object with success', async () => {
    const id = await idOf('2/14 smith st ryde');
    const response = await api.metadata({ id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      full_address: 'Unit 2, 14 Smith Street, RYDE NSW 2112',
      unit_type: 'Unit',
      unit_identifier: '2',
      street_number_1: '14',
      address_line_1: 'Unit 2',
      address_line_2: '14 Smith Street',
      success: true,
    });
    expect(response.body).not.toHaveProperty('address');
  });

  it('loads a record by gnaf_id', async () => {
    const response = await api.metadata({ gnaf_id: 'GANSW716000001' });
    expect(response.body).toMatchObject({
      full_address: '11-15 Neville Street, RYDE NSW 2112',
      gnaf_id: 'GANSW716000001',
      street_number_2: '15',
    });
  });

  // Regression: census (default 2016 on this endpoint) was ignored, so no census field was ever answered.
  it('answers meshblock, sa1_id and sa2_id (null: not held) by default, census defaulting to 2016', async () => {
    const requests: Record<string, string>[] = [
      { gnaf_id: 'GANSW716000001' },
      { gnaf_id: 'GANSW716000001', census: '2016' },
    ];
    for (const params of requests) {
      expect((await api.metadata(params)).body).toMatchObject({
        meshblock: null,
        sa1_id: null,
        sa2_id: null,
        success: true,
      });
    }
  });

  it('refuses a census that is not a year with 1000', async () => {
    const response = await api.metadata({ gnaf_id: 'GANSW716000001', census: 'abc' });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { completions: [], message: 'Census must be a census year, e.g. 2016', error_code: '1000', success: false },
    });
  });

  it('adds coordinates with gps=1', async () => {
    const response = await api.metadata({ gnaf_id: 'GANSW716000001', gps: '1' });
    expect(response.body).toMatchObject({ latitude: '-33.800000', longitude: '151.100000' });
  });

  it('answers 1011 for an unknown, forged or malformed id, an unknown gnaf_id, and any dpid', async () => {
    const id = await idOf('14 smith st ryde');
    const forged = id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
    const cases: Record<string, string>[] = [
      { id: forged },
      { id: 'not-an-id' },
      { id: '00000000-0000-4000-8000-000000000000' },
      { gnaf_id: 'GANSW123' },
      { dpid: '12345678' },
    ];
    for (const params of cases) {
      expect(await api.metadata(params)).toEqual(NOT_FOUND);
    }
  });

  it('does not accept an id from a previous data set (ids change on refresh)', async () => {
    const id = await idOf('14 smith st ryde');
    const refreshed = addressApi(datasetOf(knownAddresses(), 'test-2'));
    expect(await refreshed.metadata({ id })).toEqual(NOT_FOUND);
  });

  it('requires exactly one of id, gnaf_id or dpid (1000)', async () => {
    const error = {
      status: 400,
      body: {
        completions: [],
        message: 'Exactly one of id, gnaf_id or dpid must be supplied',
        error_code: '1000',
        success: false,
      },
    };
    expect(await api.metadata({})).toEqual(error);
    expect(await api.metadata({ id: 'a', gnaf_id: 'b' })).toEqual(error);
    expect(await api.metadata({ id: '', gnaf_id: '' })).toEqual(error);
  });

  it('rejects a bad gps flag (1000)', async () => {
    const response = await api.metadata({ gnaf_id: 'GANSW716000001', gps: 'on' });
    expect(response).toEqual({
      status: 400,
      body: { completions: [], message: 'Gps must be 0 or 1', error_code: '1000', success: false },
    });
  });
});
