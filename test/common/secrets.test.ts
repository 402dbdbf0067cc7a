import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret, verifySecret } from '#common';

describe('client secrets', () => {
  it('generates 256-bit base64url secrets that never repeat', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    }
  });

  it('hashes to a labelled SHA-256 digest that does not contain the secret', () => {
    const secret = generateSecret();
    const hash = hashSecret(secret);
    expect(hash).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(secret);
    expect(hashSecret(secret)).toBe(hash);
  });

  it('verifies the right secret and rejects a different one', () => {
    const secret = generateSecret();
    const hash = hashSecret(secret);
    expect(verifySecret(secret, hash)).toBe(true);
    expect(verifySecret(generateSecret(), hash)).toBe(false);
    expect(verifySecret(secret.slice(0, -1), hash)).toBe(false);
  });

  it('returns false instead of throwing on malformed input', () => {
    const hash = hashSecret('x');
    expect(verifySecret('', hash)).toBe(false);
    expect(verifySecret('x', '')).toBe(false);
    expect(verifySecret('x', 'sha256:short')).toBe(false);
    expect(verifySecret('x'.repeat(100_000), hash)).toBe(false);
    expect(verifySecret(undefined as unknown as string, hash)).toBe(false);
    expect(verifySecret('x', null as unknown as string)).toBe(false);
    expect(verifySecret('x', 'é'.repeat(25))).toBe(false);
  });
});
