import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafePath } from '../../../src/gateway/routing/path-guard.ts';

/** Segment pieces a path-confusion attempt is made of, and ordinary ones. */
const PIECES = [
  'a',
  'api',
  'x=1',
  '~u',
  'caf%C3%A9',
  '%41',
  '.',
  '..',
  '...',
  '%2e',
  '%2E',
  '.%2e',
  '%2e.',
  '%2E%2e',
  ';',
  ';jsessionid=1',
  '%3b',
  '%3B',
  '%25',
  '%252e',
  '%2f',
  '%5C',
  '%00',
  '%c0%ae',
  '%',
  '%zz',
  '\\',
  ':',
  '@',
  '',
] as const;

const segment = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`);

/** Every way a lenient server may read one segment: as sent, decoded once, decoded twice. */
function readings(seg: string): string[] {
  const out = [seg];
  for (let i = 0; i < 2; i++) {
    try {
      out.push(decodeURIComponent(out[out.length - 1] as string));
    } catch {
      break;
    }
  }
  return out;
}

describe('isSafePath: paths the route map and any upstream read alike (property-based)', () => {
  it('accepts a path only if no reading of a segment is a dot segment, holds a separator or a path parameter', () => {
    fc.assert(
      fc.property(path, (p) => {
        if (!isSafePath(p)) return;
        // No empty segment either, but the last (`/`, `/x/`): `//x` is a host to some parsers.
        expect(p).not.toContain('//');
        for (const seg of p.slice(1).split('/')) {
          for (const read of readings(seg)) {
            expect(read).not.toMatch(/[/\\;\0]/);
            expect(['.', '..']).not.toContain(read);
          }
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('accepts a path only if the WHATWG URL parser leaves it as it is (no dot segment resolved, nothing re-encoded)', () => {
    fc.assert(
      fc.property(path, (p) => {
        if (isSafePath(p)) expect(new URL(p, 'http://gateway.test').pathname).toBe(p);
      }),
      { numRuns: 5_000 },
    );
  });

  const plain = fc.array(fc.constantFrom('a', 'api', 'v1', 'x-y'), { maxLength: 3 });
  const join = (...segments: string[][]) => `/${segments.flat().join('/')}`;

  it('refuses a path parameter, an encoded ; or % and an overlong UTF-8 dot wherever they are', () => {
    const anywhere = fc.constantFrom('..;', ';', ';v=1', '%3b', '%3B', '%25', '%252e', '%c0%ae');
    fc.assert(
      fc.property(plain, anywhere, fc.constantFrom('', 'a', 'x.'), plain, (before, piece, glued, after) => {
        expect(isSafePath(join(before, [glued + piece], after))).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses a dot segment however its dots are spelled', () => {
    const dots = fc.array(fc.constantFrom('.', '%2e', '%2E'), { minLength: 1, maxLength: 2 }).map((d) => d.join(''));
    fc.assert(
      fc.property(plain, dots, plain, fc.boolean(), (before, dot, after, trailingSlash) => {
        expect(isSafePath(join(before, [dot], after) + (trailingSlash ? '/' : ''))).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps ordinary paths, percent-encoded UTF-8 included', () => {
    for (const p of [
      '/api/au/address/autocomplete',
      '/.well-known/jwks.json',
      '/prefix/caf%C3%A9',
      '/prefix/a..b',
      '/x/%41',
    ]) {
      expect(isSafePath(p)).toBe(true);
    }
  });
});
