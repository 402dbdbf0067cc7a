import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/validation/address/search/query.ts';

/** Query text a client may send: any text, and address-like pieces glued in any order. */
const piece = fc.oneof(
  fc.constantFrom('14', '2/14', '85lake', 'nsw2112', 'u2', 'unit', 'lot12', '11-15', '21st', '14a', 'australia'),
  fc.constantFrom('smith', 'st', 'rd', 'ryde', 'new', 'south', 'wales', 'level', 'ground', 'flat', ',', '/', '-', ' '),
  fc.stringMatching(/^[0-9]{1,6}[a-z]{0,6}$/),
  fc.stringMatching(/^[a-z]{0,6}[0-9]{0,6}$/),
);
const queryText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(' ')),
  fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join('')),
);

describe('the address query parser, on any text', () => {
  it('never throws, and yields at most 16 words of letters, each a piece of the query', () => {
    fc.assert(
      fc.property(queryText, fc.boolean(), (q, prefix) => {
        const parsed = parseQuery(q, { prefix });
        expect(parsed.words.length).toBeLessThanOrEqual(16);
        for (const word of parsed.words) {
          expect(word.text).toMatch(/^[a-z]+$/);
          expect(word.text.length).toBeLessThanOrEqual(q.length);
        }
        const numbers = [parsed.number, parsed.unit, parsed.level, parsed.lot, ...parsed.flex];
        expect(numbers.filter((n) => n !== null).length).toBeLessThanOrEqual(16);
        for (const n of numbers) if (n) expect(n.text.length).toBeLessThanOrEqual(q.length);
        // The other reading of a unit word after a word is one more parse, never a chain of them.
        if (parsed.alternative) {
          expect(parsed.alternative.alternative).toBeNull();
          expect(parsed.alternative.words.length).toBeGreaterThan(parsed.words.length);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a number run into a word of three letters or more as the number and the word', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999 }),
        fc.stringMatching(/^[a-z]{3,12}$/),
        fc.boolean(),
        (n, word, prefix) => {
          expect(parseQuery(`${n}${word} st ryde`, { prefix })).toEqual(parseQuery(`${n} ${word} st ryde`, { prefix }));
        },
      ),
    );
  });

  it('reads letters run into a three- or four-digit number as the word and the number', () => {
    fc.assert(
      fc.property(fc.constantFrom('nsw', 'vic', 'ryde', 'lot'), fc.integer({ min: 100, max: 9999 }), (word, n) => {
        expect(parseQuery(`14 smith st ${word}${n}`, { prefix: false })).toEqual(
          parseQuery(`14 smith st ${word} ${n}`, { prefix: false }),
        );
      }),
    );
  });

  it('keeps house-number suffixes, ordinals and glued units whole', () => {
    expect(parseQuery('14a smith st', { prefix: false }).number?.text).toBe('14a');
    expect(parseQuery('21st ave', { prefix: false }).words.map((w) => w.text)).toEqual(['ave']);
    expect(parseQuery('u2 14 smith st', { prefix: false })).toMatchObject({
      unit: { text: '2' },
      number: { text: '14' },
    });
  });

  it('drops a trailing "Australia" after an address, and only there', () => {
    const words = (q: string): string[] => parseQuery(q, { prefix: false }).words.map((w) => w.text);
    expect(words('14 Smith St, Ryde NSW 2112, Australia')).toEqual(['smith', 'st', 'ryde', 'nsw']);
    expect(words('Australia')).toEqual(['australia']);
    expect(words('14 australia st newtown')).toEqual(['australia', 'st', 'newtown']);
    expect(words('adelaide south australia')).toEqual(['adelaide', 'sa']);
  });
});
