import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { autocompleteRoute } from '../../../src/validation/address/http/autocomplete.ts';
import { address, addressApi, completionsOf, datasetOf, knownAddresses } from './fixtures.ts';

const api = addressApi(datasetOf(knownAddresses()));

function expectValidationError(response: { status: number; body: unknown }, message: string): void {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ completions: [], message, error_code: '1000', success: false });
}

describe('GET /api/au/address/autocomplete', () => {
  it('answers completions with full_address, id and canonical_address_id, and success', async () => {
    const response = await api.autocomplete({ q: '14 smith st ryde', format: 'json' });
    expect(response.status).toBe(200);
    const body = response.body as { completions: Record<string, string>[]; success: boolean };
    expect(body.success).toBe(true);
    expect(Object.keys(body.completions[0]!).sort()).toEqual(['canonical_address_id', 'full_address', 'id']);
    expect(body.completions[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.completions[0]!.canonical_address_id).toBe(body.completions[0]!.id);
  });

  it('gives an alias the id of its canonical address as canonical_address_id', async () => {
    const completions = completionsOf(await api.autocomplete({ q: '13 neville st ryde' }));
    const alias = completions.find((c) => c.full_address.startsWith('13 '))!;
    const principal = completions.find((c) => c.full_address.startsWith('11-15 '))!;
    expect(alias.canonical_address_id).toBe(principal.id);
    expect(alias.id).not.toBe(principal.id);
  });

  it('rejects a missing or blank q with 1000 "Q can not be blank" and completions: []', async () => {
    expectValidationError(await api.autocomplete({}), 'Q can not be blank');
    expectValidationError(await api.autocomplete({ q: '   ' }), 'Q can not be blank');
  });

  it('rejects a q longer than 200 characters', async () => {
    expectValidationError(await api.autocomplete({ q: 'a'.repeat(201) }), 'Q is too long (maximum is 200 characters)');
  });

  it('returns at most 10 by default and honours max from 1 to 100', async () => {
    expect(completionsOf(await api.autocomplete({ q: 'ryde' }))).toHaveLength(10);
    expect(completionsOf(await api.autocomplete({ q: 'ryde', max: '3' }))).toHaveLength(3);
    expect(completionsOf(await api.autocomplete({ q: 'ryde', max: '100' })).length).toBeGreaterThan(10);
  });

  it('rejects max outside 1..100 or not an integer', async () => {
    for (const max of ['0', '101', '-1', '2.5', 'ten']) {
      expectValidationError(await api.autocomplete({ q: 'ryde', max }), 'Max must be an integer from 1 to 100');
    }
  });

  it('filters by state_codes (comma-separated, any case) and rejects an unknown state', async () => {
    const all = completionsOf(await api.autocomplete({ q: '8 george st' }));
    expect(all).toHaveLength(2);
    const qld = completionsOf(await api.autocomplete({ q: '8 george st', state_codes: 'qld' }));
    expect(qld.map((c) => c.full_address)).toEqual(['8 George Street, BRISBANE CITY QLD 4000']);
    expect(completionsOf(await api.autocomplete({ q: '8 george st', state_codes: 'VIC,QLD' }))).toHaveLength(1);
    expectValidationError(
      await api.autocomplete({ q: 'x', state_codes: 'NSW,XYZ' }),
      'State codes contains an unknown state: XYZ',
    );
  });

  it('leaves out boxes with post_box=0, returns only boxes with post_box=1, and rejects other values', async () => {
    const addresses = (r: { body: unknown }): string[] => completionsOf(r).map((c) => c.full_address);
    expect(addresses(await api.autocomplete({ q: 'ryde 12', post_box: '0' }))).not.toContain(
      'PO Box 12, RYDE NSW 2112',
    );
    expect(addresses(await api.autocomplete({ q: 'ryde', post_box: '1' }))).toEqual(['PO Box 12, RYDE NSW 2112']);
    expectValidationError(await api.autocomplete({ q: 'ryde', post_box: 'yes' }), 'Post box must be 0 or 1');
  });

  it('adds highlighted_full_address with matched terms wrapped only when highlight=1', async () => {
    const plain = completionsOf(await api.autocomplete({ q: '14 smith st ry' }))[0]!;
    expect(plain.highlighted_full_address).toBeUndefined();
    const lit = completionsOf(await api.autocomplete({ q: '14 smith st ry', highlight: '1' }))[0]!;
    expect(lit.highlighted_full_address).toBe(
      "<span class='af_hl'>14</span> <span class='af_hl'>Smith</span> <span class='af_hl'>Street</span>, <span class='af_hl'>RY</span>DE NSW 2112",
    );
    expectValidationError(await api.autocomplete({ q: 'ryde', highlight: '2' }), 'Highlight must be 0 or 1');
  });

  // Regression: the apostrophe, which search ignores, took the place of the last typed letter.
  it('highlights every typed letter of a word with an apostrophe', async () => {
    const melton = addressApi(datasetOf([address("O'Connell Road", 'MELTON', 'VIC', '3337', { numberFirst: '2' })]));
    const lit = completionsOf(await melton.autocomplete({ q: 'oconn', highlight: '1' }))[0]!;
    expect(lit.highlighted_full_address).toBe("2 <span class='af_hl'>O&#39;Conn</span>ell Road, MELTON VIC 3337");
  });

  it('leaves out aliases with canonical=1', async () => {
    const completions = completionsOf(await api.autocomplete({ q: 'neville st ryde', canonical: '1' }));
    expect(completions.map((c) => c.full_address)).toEqual(['11-15 Neville Street, RYDE NSW 2112']);
  });

  it('accepts only format=json and validates source', async () => {
    expectValidationError(await api.autocomplete({ q: 'ryde', format: 'xml' }), 'Format must be json');
    expectValidationError(await api.autocomplete({ q: 'ryde', source: 'OSM' }), 'Source must be GNAF, PAF or GNAF,PAF');
    const gnafOnly = completionsOf(await api.autocomplete({ q: 'po box 12 ryde', source: 'GNAF' }));
    expect(gnafOnly.map((c) => c.full_address)).not.toContain('PO Box 12, RYDE NSW 2112');
  });

  it('answers an empty list, not an error, when nothing matches', async () => {
    const response = await api.autocomplete({ q: 'qqqq' });
    expect(response).toEqual({ status: 200, body: { completions: [], success: true } });
  });
});

describe('address handler failures', () => {
  it('answers 1099 with completions: [] and logs the detail when the data set fails unexpectedly', async () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'error',
      destination: {
        write: (line: string) => {
          lines.push(line);
        },
      },
    });
    const route = autocompleteRoute(() => {
      throw new Error('column missing');
    });
    const response = await route.handle({ query: new URLSearchParams({ q: 'ryde' }), projectId: 'p', log });
    expect(response).toEqual({
      status: 500,
      body: { completions: [], message: 'Internal error', error_code: '1099', success: false },
    });
    expect(lines.join('')).toContain('column missing');
  });
});
