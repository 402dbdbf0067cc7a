import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidNonce } from '../../src/client/dpop-nonces.ts';
import { asksForDpopNonce, MAX_CHALLENGE_LENGTH, parseChallenges } from '../../src/client/www-authenticate.ts';

const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const token = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 12 });
/** Printable ASCII, space and tab: what a quoted-string may hold, escaped where needed. */
const quotable = fc.string({ unit: fc.constantFrom(...' \t!"#\\=,;abcXYZ09~'), maxLength: 16 });
const ows = fc.constantFrom('', ' ', '  ', '\t');

interface Generated {
  scheme: string;
  params: Array<[string, string, boolean]>;
}

const challenge: fc.Arbitrary<Generated> = fc.record({
  scheme: token,
  params: fc.uniqueArray(fc.tuple(token, quotable, fc.boolean()), {
    maxLength: 4,
    selector: ([name]) => name.toLowerCase(),
  }),
});

function serialise(c: Generated, space: string): string {
  if (c.params.length === 0) return c.scheme;
  const params = c.params.map(([name, value, asToken]) => {
    const written = asToken && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value) ? value : quote(value);
    return `${name}${space}=${space}${written}`;
  });
  return `${c.scheme} ${params.join(`${space},${space}`)}`;
}

const quote = (value: string) => `"${value.replace(/["\\]/g, (ch) => `\\${ch}`)}"`;

describe('WWW-Authenticate challenges', () => {
  it('reads schemes, params (names lower-cased, quoted values unescaped) and token68', () => {
    expect(parseChallenges('Bearer realm="tokengate", error="invalid_token", DPoP algs="ES256 EdDSA"')).toEqual([
      {
        scheme: 'Bearer',
        params: new Map([
          ['realm', 'tokengate'],
          ['error', 'invalid_token'],
        ]),
      },
      { scheme: 'DPoP', params: new Map([['algs', 'ES256 EdDSA']]) },
    ]);
    expect(parseChallenges('Basic dXNlcg==, Negotiate')).toEqual([
      { scheme: 'Basic', params: new Map(), token68: 'dXNlcg==' },
      { scheme: 'Negotiate', params: new Map() },
    ]);
    expect(parseChallenges('DPoP ERROR = "a \\"b\\""')?.[0]?.params.get('error')).toBe('a "b"');
  });

  it('reads nothing from a value that is not a well-formed challenge list', () => {
    for (const bad of ['DPoP error="unterminated', '"DPoP"', 'DPoP error=a b', 'DPoP a=1, a=2', '=x']) {
      expect({ bad, parsed: parseChallenges(bad) }).toEqual({ bad, parsed: undefined });
    }
    expect(parseChallenges(`DPoP error="${'x'.repeat(MAX_CHALLENGE_LENGTH)}"`)).toBeUndefined();
  });

  it('finds use_dpop_nonce only in a DPoP challenge (any case of the scheme)', () => {
    expect(asksForDpopNonce('DPoP error="use_dpop_nonce", error_description="nonce"')).toBe(true);
    expect(asksForDpopNonce('Bearer realm="x", dpop algs="ES256", error=use_dpop_nonce')).toBe(true);
    expect(asksForDpopNonce('Bearer error="use_dpop_nonce"')).toBe(false);
    expect(asksForDpopNonce('DPoP error="invalid_dpop_proof"')).toBe(false);
    expect(asksForDpopNonce('DPoP error="use_dpop_nonce')).toBe(false);
    expect(asksForDpopNonce(null)).toBe(false);
  });

  it('reads back any list of challenges as written, with any optional whitespace (property-based)', () => {
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 4 }), ows, ows, (challenges, space, between) => {
        const value = challenges.map((c) => serialise(c, space)).join(`${between},${between}`);
        const parsed = parseChallenges(value);
        expect(parsed?.map((c) => c.scheme)).toEqual(challenges.map((c) => c.scheme));
        parsed?.forEach((c, i) => {
          const wanted = new Map(challenges[i]?.params.map(([name, v]) => [name.toLowerCase(), v]));
          expect(c.params).toEqual(wanted);
        });
      }),
    );
  });

  it('never throws, whatever the server sends (property-based)', () => {
    const unit = fc.constantFrom(...'DPoP error="use_dpop_nonce" ,=\\\t\r\n\u0000\u00ff\u{1f600}ab');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit, maxLength: 60 })), (value) => {
        const parsed = parseChallenges(value);
        expect(parsed === undefined || Array.isArray(parsed)).toBe(true);
        expect(typeof asksForDpopNonce(value)).toBe('boolean');
      }),
    );
  });
});

describe('DPoP-Nonce values', () => {
  it('accepts exactly RFC 9449 NQCHAR strings of 1 to 1024 characters (property-based)', () => {
    const nqchar = fc.integer({ min: 0x21, max: 0x7e }).filter((c) => c !== 0x22 && c !== 0x5c);
    const valid = fc.string({ unit: nqchar.map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 1024 });
    fc.assert(
      fc.property(valid, (nonce) => {
        expect(isValidNonce(nonce)).toBe(true);
      }),
    );
    const outside = fc.constantFrom(' ', '"', '\\', '\t', '\n', '\u0000', '\u00e9', '\u{1f600}');
    fc.assert(
      fc.property(valid, outside, fc.nat(), (nonce, bad, at) => {
        const i = at % (nonce.length + 1);
        expect(isValidNonce(nonce.slice(0, i) + bad + nonce.slice(i))).toBe(false);
      }),
    );
    expect(isValidNonce('')).toBe(false);
    expect(isValidNonce('n'.repeat(1025))).toBe(false);
  });
});
