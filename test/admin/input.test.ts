import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdminError,
  createClientInput,
  createProjectInput,
  parseInput,
  revokeTokenInput,
  rotateKeysInput,
} from '#admin';
import { PLANS, SCOPES } from '#common';
import { legacyFlag, legacyName, legacyPlan, legacyScopes, legacyToken, Refusal } from './legacy-input.ts';

/** Characters a name must not hold, and ones it may, that a plain generator seldom draws. */
const SPECIAL = [
  ...['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009b'],
  ...['\u202a', '\u202e', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c'],
  ...['\ud800', '\udbff', '\udc00', '\udfff'],
  ...[' ', '\u00a0', '\u3000', '\ufeff', '\u200d', '\ufe0f', '\u{1f469}', 'é'],
];
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL) },
);
/** A string of `min`-`max` units (a unit may be two UTF-16 code units). */
const sized = (min: number, max: number, of: fc.Arbitrary<string> = unit) =>
  fc.integer({ min, max }).chain((length) => fc.string({ unit: of, minLength: length, maxLength: length }));
const blank = fc.constantFrom('', ' ', '\t', '\n ', '\u3000');
/** Short names, and names right at the 100-character bound, with and without blanks around. */
const nameLike = fc.oneof(
  fc.string({ unit, maxLength: 20 }),
  fc.tuple(blank, sized(96, 104), blank).map((parts) => parts.join('')),
);
/** Any JSON value, and strings of every kind, where a field's value is expected. */
const fieldValue = fc.oneof(nameLike, fc.jsonValue(), fc.anything());
const scopeLike = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SCOPES) },
  { weight: 1, arbitrary: fc.constantFrom('adress', 'Email', '', ' phone') },
  { weight: 1, arbitrary: fieldValue },
);
/** Lists across both bounds (empty, more than 16). */
const scopeLists = fc.oneof(
  fc.array(scopeLike, { maxLength: 4 }),
  fc.array(scopeLike, { minLength: 14, maxLength: 18 }),
);
const tokenLike = fc.oneof(
  fc.string({ unit, maxLength: 20 }),
  fc.tuple(blank, sized(8188, 8196, fc.constantFrom('a', '.', '-', ' ')), blank).map((parts) => parts.join('')),
);

/** What parsing gives: the value, or the refusal's message. */
function outcome<T>(parse: () => T): { value: T } | { message: string } {
  try {
    return { value: parse() };
  } catch (error) {
    if (error instanceof AdminError && error.kind === 'invalid_input') return { message: error.message };
    if (error instanceof Refusal) return { message: error.message };
    throw error;
  }
}

const project = (body: unknown) => outcome(() => ({ ...parseInput(createProjectInput, body) }));
const client = (body: unknown) => outcome(() => ({ ...parseInput(createClientInput, body) }));

describe('admin input schemas', () => {
  it('accept and refuse exactly what the hand-written field checks did, with the same messages', () => {
    fc.assert(
      fc.property(fieldValue, fc.oneof(fc.constantFrom(...PLANS), fieldValue), (name, plan) => {
        expect(project({ name, plan })).toEqual(outcome(() => ({ name: legacyName(name), plan: legacyPlan(plan) })));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fieldValue, fc.oneof(scopeLists, fieldValue), (name, scopes) => {
        expect(client({ name, scopes })).toEqual(
          outcome(() => ({ name: legacyName(name), scopes: legacyScopes(scopes) })),
        );
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.oneof(tokenLike, fieldValue), (token) => {
        expect(outcome(() => ({ ...parseInput(revokeTokenInput, { token }) }))).toEqual(
          outcome(() => ({ token: legacyToken(token) })),
        );
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.boolean(), fc.constant(undefined), fieldValue), (now) => {
        const body = now === undefined ? {} : { now };
        expect(outcome(() => ({ ...parseInput(rotateKeysInput, body) }))).toEqual(
          outcome(() => ({ now: legacyFlag(body, 'now') })),
        );
      }),
    );
  });

  it('keeps a name only as its trimmed self: 1-100 characters of well-formed text without control or bidi characters', () => {
    fc.assert(
      fc.property(nameLike, (name) => {
        const parsed = project({ name, plan: 'free' });
        if (!('value' in parsed)) return;
        const kept = parsed.value.name;
        expect(kept).toBe(name.trim());
        expect(kept.length).toBeGreaterThanOrEqual(1);
        expect(kept.length).toBeLessThanOrEqual(100);
        expect(kept).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
        expect(kept.isWellFormed()).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts a name in UTF-16 units, as the admin API always has: 51 astral characters are too long', () => {
    expect(project({ name: '\u{10000}'.repeat(51), plan: 'free' })).toEqual({
      message: 'name: at most 100 characters',
    });
    expect(project({ name: '\u{10000}'.repeat(50), plan: 'free' })).toMatchObject({ value: { plan: 'free' } });
  });

  it('refuses a good name with a control, bidi or lone surrogate character inside, naming which', () => {
    const good = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => s.trim() === s);
    const bad = fc.constantFrom(
      ['\u0000', 'control characters'],
      ['\u0085', 'control characters'],
      ['\u009b', 'control characters'],
      ['\u202e', 'bidirectional controls'],
      ['\u2067', 'bidirectional controls'],
      ['\udc00', 'valid Unicode text'],
    );
    fc.assert(
      fc.property(good, bad, good, (before, [char, rule], after) => {
        expect(project({ name: `${before}${char}${after}`, plan: 'business' })).toEqual({
          message: expect.stringMatching(new RegExp(`^name: must (not contain )?(be )?${rule}`)),
        });
      }),
    );
  });

  it('collapses any non-empty list of known scopes to its distinct scopes in the table order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SCOPES), { minLength: 1, maxLength: 16 }), (scopes) => {
        expect(client({ name: 'c', scopes })).toEqual({
          value: { name: 'c', scopes: SCOPES.filter((scope) => scopes.includes(scope)) },
        });
      }),
    );
  });

  it('refuses a list with an unknown scope, quoting at most 32 characters of it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...SCOPES), { maxLength: 7 }),
        fc.string({ unit, minLength: 0, maxLength: 100 }).filter((s) => !(SCOPES as readonly string[]).includes(s)),
        fc.array(fc.constantFrom(...SCOPES), { maxLength: 7 }),
        (before, unknown, after) => {
          const parsed = client({ name: 'c', scopes: [...before, unknown, ...after] });
          expect(parsed).toEqual({
            message: `scopes: unknown scope ${JSON.stringify(unknown.slice(0, 32))}; scopes: required, a non-empty array drawn from address, phone, email`,
          });
        },
      ),
    );
  });

  it('refuses anything that is not an object as a body', () => {
    for (const body of [null, [], 'name', 3]) expect(project(body)).toEqual({ message: 'body must be a JSON object' });
  });
});
