import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '#test/dns-server.ts';
import { createMxLookup, type MxLookup } from '../../../src/validation/email/mx-lookup.ts';

describe('MX lookup against a real DNS server on loopback', () => {
  let dns: TestDnsServer;
  let lookup: MxLookup;

  beforeAll(async () => {
    dns = await startDnsServer({
      'example.com': {
        mx: [
          { preference: 20, exchange: 'backup.example.com' },
          { preference: 10, exchange: 'mx.example.com' },
        ],
      },
      'null-mx.test': { mx: [{ preference: 0, exchange: '.' }] },
      'mixed-null.test': {
        mx: [
          { preference: 0, exchange: '.' },
          { preference: 10, exchange: 'mx.mixed-null.test' },
        ],
      },
      'a-only.test': { a: ['192.0.2.10'] },
      'aaaa-only.test': { aaaa: ['2001:db8::25'] },
      'no-records.test': {},
      'servfail.test': { rcode: 'SERVFAIL' },
      'refused.test': { rcode: 'REFUSED' },
      'silent.test': { drop: true },
    });
    lookup = createMxLookup({ servers: [dns.address], timeoutMs: 300 });
  });
  afterAll(() => dns.close());

  it('returns the MX hosts ordered by preference', async () => {
    expect(await lookup('example.com')).toEqual({ kind: 'mx', hosts: ['mx.example.com', 'backup.example.com'] });
  });

  it('reads a single MX of "." as a null MX: the domain accepts no mail (RFC 7505)', async () => {
    expect(await lookup('null-mx.test')).toEqual({ kind: 'null_mx' });
  });

  it('ignores a "." MX published beside real MX hosts', async () => {
    expect(await lookup('mixed-null.test')).toEqual({ kind: 'mx', hosts: ['mx.mixed-null.test'] });
  });

  it('falls back to the A record as the implicit MX when there is no MX (RFC 5321 5.1)', async () => {
    expect(await lookup('a-only.test')).toEqual({ kind: 'implicit', hosts: ['a-only.test'] });
    const asked = dns.queries.filter((query) => query.name === 'a-only.test').map((query) => query.type);
    expect(asked).toEqual(expect.arrayContaining(['MX', 'A', 'AAAA']));
  });

  it('falls back to the AAAA record as the implicit MX', async () => {
    expect(await lookup('aaaa-only.test')).toEqual({ kind: 'implicit', hosts: ['aaaa-only.test'] });
  });

  it('reports a domain that exists without MX, A or AAAA as having no mail host', async () => {
    expect(await lookup('no-records.test')).toEqual({ kind: 'no_mail_host' });
  });

  it('reports NXDOMAIN as a domain that does not exist', async () => {
    expect(await lookup('nowhere.test')).toEqual({ kind: 'not_found' });
  });

  it('reports SERVFAIL as unknown instead of guessing', async () => {
    expect(await lookup('servfail.test')).toEqual({ kind: 'unknown', reason: 'servfail' });
  });

  it('reports REFUSED as unknown instead of guessing', async () => {
    expect(await lookup('refused.test')).toEqual({ kind: 'unknown', reason: 'refused' });
  });

  it('gives up at the deadline when the server never answers and reports a timeout', async () => {
    const started = performance.now();
    expect(await lookup('silent.test')).toEqual({ kind: 'unknown', reason: 'timeout' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports unknown when no DNS server listens at all', async () => {
    const closed = await startDnsServer();
    const address = closed.address;
    await closed.close();
    const result = await createMxLookup({ servers: [address], timeoutMs: 300 })('example.com');
    expect(result.kind).toBe('unknown');
  });

  it('sees a changed answer on the next lookup (nothing is cached by the lookup itself)', async () => {
    dns.set('changing.test', { mx: [{ preference: 5, exchange: 'one.changing.test' }] });
    expect(await lookup('changing.test')).toEqual({ kind: 'mx', hosts: ['one.changing.test'] });
    dns.set('changing.test', { rcode: 'NXDOMAIN' });
    expect(await lookup('changing.test')).toEqual({ kind: 'not_found' });
  });
});
