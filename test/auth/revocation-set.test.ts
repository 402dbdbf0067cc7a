import { describe, expect, it } from 'vitest';
import { createRevocationSet, type VerifiedToken } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';

function token(overrides: Partial<VerifiedToken> = {}): VerifiedToken {
  return {
    sub: 'c1',
    clientId: 'c1',
    projectId: 'p1',
    scopes: ['address'],
    jti: 'j1',
    iat: 1000,
    exp: 1900,
    ...overrides,
  };
}

describe('revocation set', () => {
  it('revokes a token by jti', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    set.apply([{ kind: 'jti', value: 'j1', issuedBefore: null, expiresAt: clock.nowSec() + 3600 }]);
    expect(set.isRevoked(token())).toBe(true);
    expect(set.isRevoked(token({ jti: 'j2' }))).toBe(false);
  });

  it("revokes a client's tokens of a generation below the entry's, whatever their issue time", () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1000, generation: 2, expiresAt: clock.nowSec() + 3600 }]);
    expect(set.isRevoked(token({ clientGen: 0, iat: 5000 }))).toBe(true);
    expect(set.isRevoked(token({ clientGen: 1, iat: 5000 }))).toBe(true);
    // Same second as the disable, but issued after it: its generation says so.
    expect(set.isRevoked(token({ clientGen: 2, iat: 1000 }))).toBe(false);
    expect(set.isRevoked(token({ clientGen: 3, iat: 999 }))).toBe(false);
    expect(set.isRevoked(token({ clientId: 'c2', clientGen: 0 }))).toBe(false);
  });

  it('keeps the highest generation whatever order the entries arrive in', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    const expiresAt = clock.nowSec() + 3600;
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1000, generation: 3, expiresAt }]);
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1000, generation: 1, expiresAt }]);
    expect(set.isRevoked(token({ clientGen: 2 }))).toBe(true);
    expect(set.isRevoked(token({ clientGen: 3 }))).toBe(false);
  });

  it('judges a token without client_gen by its issue time, and an entry without a generation covers every token by issue time', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    const expiresAt = clock.nowSec() + 3600;
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1000, generation: 1, expiresAt }]);
    expect(set.isRevoked(token({ iat: 1000 }))).toBe(true);
    expect(set.isRevoked(token({ iat: 1001 }))).toBe(false);
    // An entry of a replica of the previous version: no generation, a seconds cut-off for everyone.
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 2000, generation: null, expiresAt }]);
    expect(set.isRevoked(token({ clientGen: 5, iat: 2000 }))).toBe(true);
    expect(set.isRevoked(token({ clientGen: 5, iat: 2001 }))).toBe(false);
  });

  it("revokes a client's tokens issued at or before the cut-off, not those issued after", () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1000, expiresAt: clock.nowSec() + 3600 }]);
    expect(set.isRevoked(token({ iat: 999 }))).toBe(true);
    expect(set.isRevoked(token({ iat: 1000 }))).toBe(true);
    expect(set.isRevoked(token({ iat: 1001 }))).toBe(false);
    expect(set.isRevoked(token({ clientId: 'c2', iat: 10 }))).toBe(false);
  });

  it('keeps the latest cut-off when a client is revoked twice', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    const expiresAt = clock.nowSec() + 3600;
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 2000, expiresAt }]);
    set.apply([{ kind: 'client', value: 'c1', issuedBefore: 1500, expiresAt }]);
    expect(set.isRevoked(token({ iat: 1999 }))).toBe(true);
  });

  it('forgets entries once no token they cover can still be valid', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock });
    set.apply([
      { kind: 'jti', value: 'short', issuedBefore: null, expiresAt: clock.nowSec() + 10 },
      { kind: 'jti', value: 'long', issuedBefore: null, expiresAt: clock.nowSec() + 3600 },
    ]);
    expect(set.status().size).toBe(2);
    clock.advanceSec(11);
    set.apply([]);
    expect(set.status().size).toBe(1);
    expect(set.isRevoked(token({ jti: 'long' }))).toBe(true);
  });

  it('fails closed: unusable before the first sync and once older than maxStalenessSec', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock, maxStalenessSec: 30 });
    expect(set.usable()).toBe(false);
    expect(set.status()).toMatchObject({ synced: false, lagSec: null, stale: true });
    set.markSynced();
    expect(set.usable()).toBe(true);
    clock.advanceSec(30);
    expect(set.usable()).toBe(true);
    clock.advanceSec(1);
    expect(set.usable()).toBe(false);
    expect(set.status()).toMatchObject({ synced: true, lagSec: 31, stale: true });
  });

  it('fails open when configured: stale but still answering from the last set', () => {
    const clock = createFakeClock();
    const set = createRevocationSet({ clock, maxStalenessSec: 30, failOpen: true });
    set.apply([{ kind: 'jti', value: 'j1', issuedBefore: null, expiresAt: clock.nowSec() + 3600 }]);
    set.markSynced();
    clock.advanceSec(120);
    expect(set.status().stale).toBe(true);
    expect(set.usable()).toBe(true);
    expect(set.isRevoked(token())).toBe(true);
  });
});
