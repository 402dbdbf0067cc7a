import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { createEmailRoute } from '#validation';
import {
  censusYear,
  flag,
  format,
  maxResults,
  ParamError,
  postBox,
  recordId,
  requiredText,
  source,
  stateCodes,
} from '../../src/validation/address/http/params.ts';
import { parsePhoneParams } from '../../src/validation/phone/params.ts';

const log = createLogger({ level: 'silent' });

/** Values a client may send: any text, near-misses of valid ones, padding, repeats. */
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', 'AU', 'au ', 'US', 'ZZ', 'true', '1', '0', 'false', 'JSON', 'json', 'xml', '61', '0.5'),
  fc.constantFrom('0412 345 678', '+61 2 9876 5432', 'x@example.com', 'format', 'format,domain', 'NSW,VIC', 'GNAF'),
  fc.string({ minLength: 95, maxLength: 1100 }),
);

/** A query of the given parameters, each absent, once, or repeated, in any order. */
function queries(names: readonly string[]) {
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 8 })
    .map((pairs) => new URLSearchParams(pairs));
}

const PHONE = ['phone_number', 'default_country_code', 'mobile_only', 'allowed_country_codes', 'timeout', 'format'];

describe('the phone parameters (zod), on any query', () => {
  it('never throw, and accept only a trimmed number, a known country and codes of two letters', () => {
    fc.assert(
      fc.property(queries(PHONE), (query) => {
        const parsed = parsePhoneParams(query);
        if (!parsed.ok) {
          expect(parsed.error).toMatch(/^[A-Z][a-z ]+ (must|can not|is too long)/);
          return;
        }
        const { phoneNumber, defaultCountry, allowedCountries } = parsed.value;
        expect(phoneNumber).toBe(phoneNumber.trim());
        expect(phoneNumber.length).toBeGreaterThan(0);
        expect(phoneNumber.length).toBeLessThanOrEqual(100);
        expect(defaultCountry).toMatch(/^[A-Z]{2}$/);
        for (const code of allowedCountries ?? []) expect(code).toMatch(/^[A-Z]{2}$/);
      }),
      { numRuns: 500 },
    );
  });

  it('reject a repeated parameter, an unknown format and an out-of-range timeout', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('phone_number', 'default_country_code', 'mobile_only', 'allowed_country_codes'),
        value,
        value,
        (name, a, b) => {
          const query = new URLSearchParams({ phone_number: '0412 345 678', default_country_code: 'AU' });
          query.set(name, a);
          query.append(name, b);
          expect(parsePhoneParams(query).ok).toBe(false);
        },
      ),
    );
    fc.assert(
      fc.property(value, (text) => {
        const query = new URLSearchParams({ phone_number: '0412 345 678', default_country_code: 'AU', format: text });
        expect(parsePhoneParams(query).ok).toBe(text === '' || text.toLowerCase() === 'json');
        const timeout = new URLSearchParams({
          phone_number: '0412 345 678',
          default_country_code: 'AU',
          timeout: text,
        });
        const seconds = Number(text);
        expect(parsePhoneParams(timeout).ok).toBe(text === '' || (seconds > 0 && seconds <= 60));
      }),
    );
  });
});

describe('the email parameters (zod), on any query', () => {
  const route = createEmailRoute({ dnsCache: false });

  it('never throw: a syntax-only check answers 200, anything malformed 400 with error 1000', async () => {
    await fc.assert(
      fc.asyncProperty(queries(['email', 'format']), async (query) => {
        query.set('features', 'format');
        const response = await route.handle({ query, projectId: 'proj_test', log });
        if (response.status === 200) return;
        expect(response).toMatchObject({ status: 400, body: { error_code: '1000', success: false } });
      }),
      { numRuns: 300 },
    );
  });

  it('reject a features list with a name it does not know, and a repeated email', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z]{1,12}$/), async (name) => {
        fc.pre(!['format', 'domain', 'connection', 'provider'].includes(name));
        const query = new URLSearchParams({ email: 'x@example.com', features: `format,${name}` });
        const response = await route.handle({ query, projectId: 'proj_test', log });
        expect(response).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Features must/) } });
      }),
      { numRuns: 100 },
    );
    const twice = new URLSearchParams([
      ['email', 'a@example.com'],
      ['email', 'b@example.com'],
    ]);
    expect(await route.handle({ query: twice, projectId: 'proj_test', log })).toMatchObject({
      body: { message: 'Email must be given once' },
    });
  });
});

describe('the address parameters (zod), on any value', () => {
  /** A parameter either parses or throws the ParamError the route answers 1000 with, nothing else. */
  function outcome<T>(parse: () => T): { value: T } | { error: string } {
    try {
      return { value: parse() };
    } catch (error) {
      expect(error).toBeInstanceOf(ParamError);
      return { error: (error as ParamError).message };
    }
  }
  const one = (name: string, text: string) => new URLSearchParams({ [name]: text });

  it('take exactly one record id on the metadata endpoint, whichever of the three names it uses', () => {
    fc.assert(
      fc.property(queries(['id', 'gnaf_id', 'dpid']), (query) => {
        const given = ['id', 'gnaf_id', 'dpid'].filter((name) => (query.get(name)?.trim() ?? '') !== '');
        const record = outcome(() => recordId(query));
        if (given.length !== 1)
          expect(record).toEqual({ error: 'Exactly one of id, gnaf_id or dpid must be supplied' });
        else if ('value' in record) expect(record.value.value).toBe(query.get(record.value.name)?.trim());
      }),
    );
  });

  it('parse or refuse with a ParamError, never anything else, and keep their bounds', () => {
    fc.assert(
      fc.property(value, (text) => {
        const max = outcome(() => maxResults(one('max', text)));
        if ('value' in max) expect(Number.isInteger(max.value) && max.value >= 1 && max.value <= 100).toBe(true);
        const states = outcome(() => stateCodes(one('state_codes', text)));
        if ('value' in states)
          for (const code of states.value ?? [])
            expect(['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA', 'OT']).toContain(code);
        const q = outcome(() => requiredText(one('q', text), 'q'));
        if ('value' in q) expect(q.value.length > 0 && q.value.length <= 200 && q.value === q.value.trim()).toBe(true);
        const gps = outcome(() => flag(one('gps', text), 'gps', false));
        expect('value' in gps).toBe(['', '0', '1', 'true', 'false'].includes(text));
        const census = outcome(() => censusYear(one('census', text), false));
        expect('value' in census).toBe(/^(\d{4})?$/.test(text.trim()));
        const formatted = outcome(() => format(one('format', text)));
        expect('value' in formatted).toBe(text === '' || text.toLowerCase() === 'json');
        outcome(() => postBox(one('post_box', text)));
        const record = outcome(() => recordId(one('gnaf_id', text)));
        expect('value' in record).toBe(text.trim() !== '' && text.trim().length <= 200);
        const sources = outcome(() => source(one('source', text)));
        if ('value' in sources) expect(sources.value.physical || sources.value.postal).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
