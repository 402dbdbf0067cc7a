import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { startDnsServer, type TestDnsServer } from '#test/dns-server.ts';
import { createEmailRoute } from '#validation';
import type { ValidationResponse, ValidationRoute } from '#validation';

const logLines: string[] = [];
const log = createLogger({ level: 'debug', destination: { write: (line: string) => void logLines.push(line) } });

describe('GET /api/email/v1/verification', () => {
  let dns: TestDnsServer;
  let route: ValidationRoute;

  async function call(params: Record<string, string> | URLSearchParams): Promise<ValidationResponse> {
    const query = params instanceof URLSearchParams ? params : new URLSearchParams(params);
    return route.handle({ query, projectId: 'proj_test', log });
  }
  async function body(params: Record<string, string>): Promise<Record<string, unknown>> {
    const response = await call(params);
    expect(response.status).toBe(200);
    return response.body as Record<string, unknown>;
  }

  beforeAll(async () => {
    dns = await startDnsServer({
      'addressfinder.com': { mx: [{ preference: 1, exchange: 'aspmx.l.google.com' }] },
      'gmail.com': { mx: [{ preference: 5, exchange: 'gmail-smtp-in.l.google.com' }] },
      'mailinator.com': { mx: [{ preference: 10, exchange: 'mail.mailinator.com' }] },
      'xn--bcher-kva.de': { mx: [{ preference: 10, exchange: 'mx.xn--bcher-kva.de' }] },
      'example.com.au': { a: ['192.0.2.7'] },
      'no-mail.test': { mx: [{ preference: 0, exchange: '.' }] },
      'empty.test': {},
      'broken.test': { rcode: 'SERVFAIL' },
      'slow.test': { drop: true },
    });
    route = createEmailRoute({ dnsServers: [dns.address], dnsTimeoutMs: 300 });
  });
  afterAll(() => dns.close());

  it('declares its path and the email scope', () => {
    expect(route.path).toBe('/api/email/v1/verification');
    expect(route.scope).toBe('email');
  });

  it('verifies a deliverable business address with every documented field', async () => {
    expect(await body({ email: 'john.doe@addressfinder.com' })).toEqual({
      success: true,
      email_account: 'john.doe',
      email_domain: 'addressfinder.com',
      verified_email: 'john.doe@addressfinder.com',
      is_verified: true,
      is_disposable: false,
      is_role: false,
      is_public: false,
      is_catch_all: null,
      not_verified_code: null,
      not_verified_reason: null,
      checks: { format: 'passed', domain: 'passed', connection: 'not_performed' },
    });
  });

  it('flags a public provider address', async () => {
    expect(await body({ email: 'jane.smith@gmail.com' })).toMatchObject({
      is_verified: true,
      is_public: true,
      is_role: false,
    });
  });

  it('flags a disposable domain from the maintained list but still verifies that it receives mail', async () => {
    expect(await body({ email: 'temp@mailinator.com' })).toMatchObject({ is_verified: true, is_disposable: true });
  });

  it.each(['info', 'Sales', 'support', 'noreply', 'no-reply', 'postmaster', 'admin+alerts'])(
    'flags %s@ as a role account',
    async (account) => {
      expect(await body({ email: `${account}@addressfinder.com` })).toMatchObject({ is_role: true });
    },
  );

  it('verifies a domain without MX through its address record (implicit MX)', async () => {
    expect(await body({ email: 'a@example.com.au' })).toMatchObject({ is_verified: true, not_verified_code: null });
  });

  it('looks an internationalised domain up in its punycode form', async () => {
    expect(await body({ email: 'info@bücher.de' })).toMatchObject({ email_domain: 'bücher.de', is_verified: true });
    expect(await body({ email: 'jörg@BÜCHER.de' })).toMatchObject({
      verified_email: 'jörg@bücher.de',
      is_verified: true,
    });
    expect(dns.queries).toContainEqual({ name: 'xn--bcher-kva.de', type: 'MX' });
  });

  it('answers FORMAT_INVALID with the documented reason for a malformed address', async () => {
    expect(await body({ email: 'john..doe@addressfinder.com' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'FORMAT_INVALID',
      not_verified_reason: 'The email format is incorrect',
      verified_email: null,
      is_disposable: null,
      checks: { format: 'failed', domain: 'not_requested', connection: 'not_requested' },
    });
  });

  it('does not query DNS for a malformed address', async () => {
    const before = dns.queries.length;
    await body({ email: 'nobody@nowhere..test' });
    expect(dns.queries.length).toBe(before);
  });

  // Regression: domainToASCII percent-decoded the domain and dropped TAB, LF and soft hyphens,
  // so each of these was verified as john@addressfinder.com.
  it.each([
    'john@addressfin%64er.com',
    'john@addressfinder%2ecom',
    'john@address\tfinder.com',
    'john@address\nfinder.com',
    'john@address\u00adfinder.com',
  ])(
    'answers FORMAT_INVALID without a DNS query for %j, whose domain the URL host parser would rewrite',
    async (email) => {
      const before = dns.queries.length;
      expect(await body({ email })).toMatchObject({
        is_verified: false,
        not_verified_code: 'FORMAT_INVALID',
        verified_email: null,
      });
      expect(dns.queries.length).toBe(before);
    },
  );

  it('answers DOMAIN_NOT_FOUND for a domain that does not exist', async () => {
    expect(await body({ email: 'a@does-not-exist.test' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'DOMAIN_NOT_FOUND',
    });
  });

  it('answers DOMAIN_REJECTS_MAIL for a null MX', async () => {
    expect(await body({ email: 'a@no-mail.test' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'DOMAIN_REJECTS_MAIL',
    });
  });

  it('answers DOMAIN_NO_MAIL_SERVER when the domain has neither MX nor address records', async () => {
    expect(await body({ email: 'a@empty.test' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'DOMAIN_NO_MAIL_SERVER',
    });
  });

  it('answers is_verified null with DOMAIN_UNVERIFIABLE when DNS fails (SERVFAIL)', async () => {
    expect(await body({ email: 'a@broken.test' })).toMatchObject({
      is_verified: null,
      not_verified_code: 'DOMAIN_UNVERIFIABLE',
      checks: { format: 'passed', domain: 'unknown', connection: 'not_performed' },
    });
  });

  it('answers is_verified null when DNS times out, and logs the domain but not the address', async () => {
    logLines.length = 0;
    expect(await body({ email: 'secret.person@slow.test' })).toMatchObject({
      is_verified: null,
      not_verified_code: 'DOMAIN_UNVERIFIABLE',
    });
    const logged = logLines.join('');
    expect(logged).toContain('"dns":"timeout"');
    expect(logged).toContain('slow.test');
    expect(logged).not.toContain('secret.person');
  });

  it('checks syntax only when format is the only feature, leaving the classifications null', async () => {
    const before = dns.queries.length;
    expect(await body({ email: 'info@gmail.com', features: 'format' })).toEqual({
      success: true,
      email_account: 'info',
      email_domain: 'gmail.com',
      verified_email: 'info@gmail.com',
      is_verified: true,
      is_disposable: null,
      is_role: null,
      is_public: null,
      is_catch_all: null,
      not_verified_code: null,
      not_verified_reason: null,
      checks: { format: 'passed', domain: 'not_requested', connection: 'not_requested' },
    });
    expect(dns.queries.length).toBe(before);
  });

  it('runs the normal verification when format is combined with another feature', async () => {
    expect(await body({ email: 'a@does-not-exist.test', features: 'format,domain' })).toMatchObject({
      not_verified_code: 'DOMAIN_NOT_FOUND',
    });
  });

  it('reports the connection check as not performed only when it was requested', async () => {
    expect(await body({ email: 'a@gmail.com', features: 'domain' })).toMatchObject({
      checks: { connection: 'not_requested' },
    });
    expect(await body({ email: 'a@gmail.com', features: 'domain,connection' })).toMatchObject({
      checks: { connection: 'not_performed' },
    });
  });

  it('returns the mail provider domain with the provider feature', async () => {
    expect(await body({ email: 'john@addressfinder.com', features: 'domain,provider' })).toMatchObject({
      email_provider_domain: 'google.com',
    });
    expect(await body({ email: 'john@example.com.au', features: 'provider' })).toMatchObject({
      email_provider_domain: 'example.com.au',
    });
    expect(await body({ email: 'john@addressfinder.com' })).not.toHaveProperty('email_provider_domain');
  });

  it.each([
    [{}, 'Email can not be blank'],
    [{ email: '' }, 'Email can not be blank'],
    [{ email: '   ' }, 'Email can not be blank'],
    [{ email: 'x'.repeat(1025) }, 'Email is too long'],
    [new URLSearchParams('email=a@gmail.com&email=b@gmail.com'), 'Email must be given once'],
    [{ email: 'a@gmail.com', features: ',' }, 'Features can not be blank'],
    [
      { email: 'a@gmail.com', features: 'domain,smtp' },
      'Features must be a comma-separated list of format, domain, connection, provider',
    ],
    [{ email: 'a@gmail.com', format: 'xml' }, 'Format must be json'],
  ])('rejects %j with error 1000 "%s"', async (params, message) => {
    expect(await call(params)).toEqual({
      status: 400,
      body: { completions: [], message, error_code: '1000', success: false },
    });
  });

  // Regression: these answered 1000 here while the address endpoints accept them.
  it.each([
    ['format=JSON', { format: 'JSON' }],
    ['an empty format', { format: '' }],
  ])('accepts %s as the address endpoints do', async (_what, params) => {
    expect(await body({ email: 'a@gmail.com', ...params })).toMatchObject({ is_verified: true });
  });

  it('runs the default features (domain,connection) for an empty features parameter', async () => {
    expect(await body({ email: 'a@gmail.com', features: '' })).toMatchObject({
      is_verified: true,
      is_public: true,
      checks: { format: 'passed', domain: 'passed', connection: 'not_performed' },
    });
  });

  // Regression: not_verified_code and not_verified_reason came right after is_verified, code first,
  // where the public field list has them after is_catch_all, reason first.
  it('answers the documented fields in the documented order, then checks', async () => {
    const documented = [
      'success',
      'email_account',
      'email_domain',
      'email_provider_domain',
      'verified_email',
      'is_verified',
      'is_disposable',
      'is_role',
      'is_public',
      'is_catch_all',
      'not_verified_reason',
      'not_verified_code',
      'checks',
    ];
    const withoutProvider = documented.filter((name) => name !== 'email_provider_domain');
    expect(Object.keys(await body({ email: 'john.doe@addressfinder.com', features: 'domain,provider' }))).toEqual(
      documented,
    );
    expect(Object.keys(await body({ email: 'john.doe@addressfinder.com' }))).toEqual(withoutProvider);
    expect(Object.keys(await body({ email: 'a@broken.test' }))).toEqual(withoutProvider);
    expect(Object.keys(await body({ email: 'john..doe@addressfinder.com', features: 'provider' }))).toEqual(documented);
    expect(Object.keys(await body({ email: 'info@gmail.com', features: 'format' }))).toEqual(withoutProvider);
  });

  it('refuses a DNS timeout outside 1..30000 ms at start-up', () => {
    expect(() => createEmailRoute({ dnsTimeoutMs: 0 })).toThrow(TypeError);
    expect(() => createEmailRoute({ dnsTimeoutMs: 60_000 })).toThrow(/dnsTimeoutMs/);
  });
});
