import { describe, expect, it } from 'vitest';
import { hashSecret, verifyRotatingSecret } from '#common';

describe('a secret checked against the current one and, during its overlap, the previous one', () => {
  const current = hashSecret('new-secret');
  const previous = { hash: hashSecret('old-secret'), validUntil: 1000 };

  it('accepts the current secret, and the previous one only before its end', () => {
    expect(verifyRotatingSecret('new-secret', current, previous, 999)).toBe(true);
    expect(verifyRotatingSecret('old-secret', current, previous, 999)).toBe(true);
    expect(verifyRotatingSecret('old-secret', current, previous, 1000)).toBe(false);
    expect(verifyRotatingSecret('new-secret', current, previous, 1000)).toBe(true);
    expect(verifyRotatingSecret('new-secret', current, null, 0)).toBe(true);
  });

  it('refuses any other secret, and everything when there is no secret at all', () => {
    expect(verifyRotatingSecret('other', current, previous, 0)).toBe(false);
    expect(verifyRotatingSecret('', current, previous, 0)).toBe(false);
    expect(verifyRotatingSecret('tokengate-no-such-secret', null, null, 0)).toBe(false);
    expect(verifyRotatingSecret('tokengate-no-such-secret', current, null, 0)).toBe(false);
  });
});
