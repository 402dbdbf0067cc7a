import fc from 'fast-check';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { readCode } from '../../src/admin/people/second-factor-codes.ts';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri } from '../../src/admin/people/totp.ts';

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const STEP_MS = 30_000;

/** Codes an independent implementation computes from the key the portal shows. */
const appCode = (secret: string, atMs: number) =>
  new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp: atMs });

describe('TOTP (RFC 6238)', () => {
  it('gives the RFC 6238 appendix B codes for SHA-1', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1_111_111_109, '07081804'],
      [1_111_111_111, '14050471'],
      [1_234_567_890, '89005924'],
      [2_000_000_000, '69279037'],
      [20_000_000_000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(hotp(RFC_SECRET, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('agrees with an independent implementation (otpauth) on a new secret', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const now = Date.UTC(2026, 11, 7, 10, 0, 0);
    expect(matchTotp(secret, appCode(secret, now), now, null)).toBe(Math.floor(now / STEP_MS));
  });

  it('accepts codes one step early or late, and none further off', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    expect(matchTotp(secret, appCode(secret, now - STEP_MS), now, null)).toBe(step - 1);
    expect(matchTotp(secret, appCode(secret, now + STEP_MS), now, null)).toBe(step + 1);
    const far = [appCode(secret, now - 2 * STEP_MS), appCode(secret, now + 2 * STEP_MS)];
    for (const code of far)
      if (![-1, 0, 1].some((d) => appCode(secret, now + d * STEP_MS) === code))
        expect(matchTotp(secret, code, now, null)).toBeNull();
  });

  it('refuses a code of the step last accepted, or of an earlier one (replay)', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    expect(matchTotp(secret, appCode(secret, now), now, step)).toBeNull();
    expect(matchTotp(secret, appCode(secret, now - STEP_MS), now, step - 1)).toBeNull();
    expect(matchTotp(secret, appCode(secret, now + STEP_MS), now, step)).toBe(step + 1);
  });

  it('round-trips base32, and puts the key and issuer in the otpauth URI', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (bytes) => {
        const encoded = base32Encode(bytes);
        expect(base32Decode(encoded).subarray(0, bytes.length)).toEqual(Buffer.from(bytes));
      }),
    );
    const uri = new URL(otpauthUri('A'.repeat(32), 'ann@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('A'.repeat(32));
    expect(uri.searchParams.get('issuer')).toBe('tokengate');
  });
});

describe('reading the code field', () => {
  it('reads app codes with spaces and recovery codes with dashes, in any case', () => {
    expect(readCode(' 123 456 ')).toEqual({ kind: 'totp', code: '123456' });
    expect(readCode('ABCD-efgh-2345-67ab')).toEqual({ kind: 'recovery', code: 'abcdefgh234567ab' });
    expect(readCode('12345')).toEqual({ kind: 'none' });
    expect(readCode('1'.repeat(41))).toEqual({ kind: 'none' });
  });

  it('never throws, and reads only the two shapes, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (input) => {
        const typed = readCode(input);
        if (typed.kind === 'totp') expect(typed.code).toMatch(/^\d{6}$/);
        if (typed.kind === 'recovery') expect(typed.code).toMatch(/^[a-z2-7]{16}$/);
      }),
    );
  });
});
