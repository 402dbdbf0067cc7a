import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '#common';
import { startDnsServer, type TestDnsServer } from '#test/dns-server.ts';
import { FOUND_TTL_MS, NOT_FOUND_TTL_MS, cachedLookup } from '../../../src/validation/email/lookup-cache.ts';
import { createMxLookup, type MxLookup } from '../../../src/validation/email/mx-lookup.ts';

function fakeClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('DNS answer cache', () => {
  let dns: TestDnsServer;
  let direct: MxLookup;
  const asked = (name: string, type = 'MX') =>
    dns.queries.filter((query) => query.name === name && query.type === type).length;

  beforeAll(async () => {
    dns = await startDnsServer({
      'big.test': { mx: [{ preference: 10, exchange: 'mx.big.test' }] },
      'flaky.test': { rcode: 'SERVFAIL' },
    });
    direct = createMxLookup({ servers: [dns.address], timeoutMs: 300 });
  });
  afterAll(() => dns.close());

  it('answers a repeated domain from memory until its TTL passes', async () => {
    const clock = fakeClock();
    const lookup = cachedLookup(direct, { clock });
    await lookup('big.test');
    await lookup('big.test');
    expect(asked('big.test')).toBe(1);
    clock.advance(FOUND_TTL_MS + 1);
    await lookup('big.test');
    expect(asked('big.test')).toBe(2);
  });

  it('forgets a domain that does not exist sooner than one that does', async () => {
    const clock = fakeClock();
    const lookup = cachedLookup(direct, { clock });
    expect(await lookup('gone.test')).toEqual({ kind: 'not_found' });
    clock.advance(NOT_FOUND_TTL_MS - 1);
    await lookup('gone.test');
    expect(asked('gone.test')).toBe(1);
    clock.advance(2);
    await lookup('gone.test');
    expect(asked('gone.test')).toBe(2);
  });

  it('never caches a DNS failure', async () => {
    const lookup = cachedLookup(direct, { clock: fakeClock() });
    expect(await lookup('flaky.test')).toEqual({ kind: 'unknown', reason: 'servfail' });
    expect(await lookup('flaky.test')).toEqual({ kind: 'unknown', reason: 'servfail' });
    expect(asked('flaky.test')).toBe(2);
  });

  it('shares one lookup between concurrent requests for the same domain', async () => {
    dns.set('popular.test', { mx: [{ preference: 1, exchange: 'mx.popular.test' }] });
    const lookup = cachedLookup(direct, { clock: fakeClock() });
    const answers = await Promise.all([lookup('popular.test'), lookup('popular.test'), lookup('popular.test')]);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(asked('popular.test')).toBe(1);
  });
});
