/**
 * Phone and email verification throughput on one core, measured in one run:
 * phone (full metadata parse, type, formats), email syntax only, and email with the DNS answer
 * served from the cache (the steady state for the big providers) and asked every time, against a
 * loopback DNS server.
 */
import { createLogger } from '#common';
import { startDnsServer } from '#test/dns-server.ts';
import { createEmailRoute, createPhoneRoute } from '#validation';
import type { ValidationRoute } from '#validation';

const log = createLogger({ level: 'silent' });

async function perSecond(route: ValidationRoute, queries: readonly URLSearchParams[], rounds: number): Promise<number> {
  for (const query of queries) await route.handle({ query, projectId: 'bench', log }); // warm-up
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    for (const query of queries) await route.handle({ query, projectId: 'bench', log });
  }
  return Math.round((rounds * queries.length) / ((performance.now() - started) / 1000));
}

export default async function run(): Promise<void> {
  const numbers = [
    '0412 345 678',
    '(02) 8503 8000',
    '+64 21 123 4567',
    '+1 212 555 0100',
    '+44 20 7946 0018',
    'not a number',
  ];
  const phoneQueries = numbers.map((phone_number) => new URLSearchParams({ phone_number, default_country_code: 'AU' }));
  const emails = ['john.doe@gmail.com', 'info@example.com', 'bad..dot@example.com', 'user@bücher.de'];
  const dns = await startDnsServer({
    'gmail.com': { mx: [{ preference: 5, exchange: 'gmail-smtp-in.l.google.com' }] },
    'example.com': { mx: [{ preference: 10, exchange: 'mx.example.com' }] },
    'xn--bcher-kva.de': { a: ['192.0.2.1'] },
  });
  try {
    const email = createEmailRoute({ dnsServers: [dns.address], dnsTimeoutMs: 500 });
    const formatOnly = emails.map((address) => new URLSearchParams({ email: address, features: 'format' }));
    const full = emails.map((address) => new URLSearchParams({ email: address }));
    const phone = await perSecond(createPhoneRoute(), phoneQueries, 2_000);
    const syntax = await perSecond(email, formatOnly, 5_000);
    const cached = await perSecond(email, full, 5_000);
    const uncachedRoute = createEmailRoute({ dnsServers: [dns.address], dnsTimeoutMs: 500, dnsCache: false });
    const uncached = await perSecond(uncachedRoute, full, 250);
    console.log(`phone verification            ${phone.toLocaleString('en')} /s`);
    console.log(`email, features=format        ${syntax.toLocaleString('en')} /s`);
    console.log(`email, DNS answer cached      ${cached.toLocaleString('en')} /s`);
    console.log(`email, DNS asked every time   ${uncached.toLocaleString('en')} /s (loopback DNS server)`);
    console.log(`ratio syntax-only / cached-DNS verification: ${(syntax / cached).toFixed(2)}`);
  } finally {
    await dns.close();
  }
}
