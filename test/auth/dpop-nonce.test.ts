import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDpopNonces, DPOP_NONCE_SLOT_SEC, type DpopNonces } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';

const SECRET = 'a-shared-nonce-secret-for-tests';
const SLOT_MS = DPOP_NONCE_SLOT_SEC * 1000;

function nonces(now: () => number, secret = SECRET) {
  return createDpopNonces({ mode: 'required', secret, now }) as DpopNonces;
}

describe('server DPoP nonces', () => {
  it('are not made at all while off', () => {
    expect(createDpopNonces({ mode: 'off', secret: SECRET, now: Date.now })).toBeUndefined();
  });

  it('accept the current and the previous slot’s nonce, and refuse one two slots old', () => {
    const clock = createFakeClock(1_800_000_000_000);
    const server = nonces(() => clock.now());
    const first = server.current();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.accepts(first)).toBe(true);
    clock.advance(SLOT_MS);
    expect(server.current()).not.toBe(first);
    expect(server.accepts(first)).toBe(true);
    expect(server.accepts(server.current())).toBe(true);
    clock.advance(SLOT_MS);
    expect(server.accepts(first)).toBe(false);
  });

  it('are accepted by every server holding the same secret, and by no other', () => {
    const now = () => 1_800_000_000_000;
    const a = nonces(now);
    expect(nonces(now).accepts(a.current())).toBe(true);
    expect(nonces(now, 'another-secret-of-16+chars').accepts(a.current())).toBe(false);
  });

  it('share one random secret within a process when none is configured', () => {
    const now = () => 1_800_000_000_000;
    const unset = (mode: 'supported' | 'required') => createDpopNonces({ mode, now }) as DpopNonces;
    const a = unset('required');
    expect(unset('supported').accepts(a.current())).toBe(true);
    expect(nonces(now).accepts(a.current())).toBe(false);
  });

  it('refuse a forged value of the right shape, and one with a character changed', () => {
    const server = nonces(() => 1_800_000_000_000);
    const real = server.current();
    expect(server.accepts('A'.repeat(43))).toBe(false);
    const changed = (real[0] === 'A' ? 'B' : 'A') + real.slice(1);
    expect(server.accepts(changed)).toBe(false);
    // The last character's two low bits are padding: an alias that decodes to the same bytes is not ours.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const alias = real.slice(0, -1) + alphabet[alphabet.indexOf(real.at(-1) as string) ^ 1];
    expect(Buffer.from(alias, 'base64url')).toEqual(Buffer.from(real, 'base64url'));
    expect(server.accepts(alias)).toBe(false);
  });
});

describe('the DPoP nonce checker, for any input', () => {
  it('never throws and accepts nothing but the nonces it issued', () => {
    const server = nonces(() => 1_800_000_000_000);
    const issued = server.current();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string({ minLength: 43, maxLength: 43, unit: fc.constantFrom(...'AZaz09-_+/=') }),
          fc.constant('x'.repeat(100_000)),
          fc.anything(),
        ),
        (value) => {
          expect(server.accepts(value)).toBe(value === issued);
        },
      ),
      { numRuns: 500 },
    );
  });
});
