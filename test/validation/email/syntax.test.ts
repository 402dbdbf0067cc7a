import { describe, expect, it } from 'vitest';
import { parseEmail } from '../../../src/validation/email/syntax.ts';

describe('email syntax (RFC 5321/5322 dot-atom, as mail systems accept it)', () => {
  it.each([
    'john.doe@example.com',
    'user+tag@gmail.com',
    "o'brien@example.ie",
    'first_last-1@sub.example.co.uk',
    "!#$%&'*+/=?^_`{|}~-@example.org",
    'a@b.co',
  ])('accepts %s', (address) => {
    expect(parseEmail(address).ok).toBe(true);
  });

  it.each([
    ['no at sign', 'john.example.com'],
    ['empty local part', '@example.com'],
    ['empty domain', 'john@'],
    ['leading dot', '.john@example.com'],
    ['trailing dot', 'john.@example.com'],
    ['consecutive dots', 'john..doe@example.com'],
    ['a space', 'john doe@example.com'],
    ['a quoted local part (refused by design)', '"john doe"@example.com'],
    ['two at signs', 'a@b@example.com'],
    ['a dotless domain', 'john@localhost'],
    ['an address literal', 'john@[192.0.2.1]'],
    ['a label starting with a hyphen', 'john@-example.com'],
    ['a label ending with a hyphen', 'john@example-.com'],
    ['an empty label', 'john@example..com'],
    ['an underscore in the domain', 'john@ex_ample.com'],
    ['an all-numeric top-level domain', 'john@example.123'],
    ['a trailing dot on the domain', 'john@example.com.'],
    ['a percent escape in the domain', 'john@exa%41mple.com'],
    ['an escaped dot in the domain', 'john@example%2ecom'],
    ['a TAB in the domain', 'john@exa\tmple.com'],
    ['a line feed in the domain', 'john@exa\nmple.com'],
    ['a soft hyphen in the domain', 'john@exa\u00admple.com'],
    ['a zero-width space in the domain', 'john@exa\u200bmple.com'],
  ])('rejects %s', (_what, address) => {
    expect(parseEmail(address).ok).toBe(false);
  });

  it('accepts a 64-octet local part and rejects a 65-octet one', () => {
    expect(parseEmail(`${'a'.repeat(64)}@example.com`).ok).toBe(true);
    expect(parseEmail(`${'a'.repeat(65)}@example.com`).ok).toBe(false);
  });

  it('counts the local part in UTF-8 octets, not characters', () => {
    expect(parseEmail(`${'é'.repeat(32)}@example.com`).ok).toBe(true);
    expect(parseEmail(`${'é'.repeat(33)}@example.com`).ok).toBe(false);
  });

  it('accepts a 63-octet label and rejects a 64-octet one', () => {
    expect(parseEmail(`a@${'b'.repeat(63)}.com`).ok).toBe(true);
    expect(parseEmail(`a@${'b'.repeat(64)}.com`).ok).toBe(false);
  });

  it('accepts a 254-octet address and rejects a 255-octet one', () => {
    const domain = `${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.com`; // 195 octets
    expect(parseEmail(`${'a'.repeat(58)}@${domain}`).ok).toBe(true);
    expect(parseEmail(`${'a'.repeat(59)}@${domain}`).ok).toBe(false);
  });

  it('converts an internationalised domain to punycode and keeps its Unicode form for display', () => {
    expect(parseEmail('info@Bücher.de')).toEqual({
      ok: true,
      account: 'info',
      domain: 'bücher.de',
      asciiDomain: 'xn--bcher-kva.de',
    });
  });

  it('accepts the ideographic and fullwidth full stops as label separators', () => {
    expect(parseEmail('a@例子。广告')).toMatchObject({ ok: true, asciiDomain: 'xn--fsqu00a.xn--4rr70v' });
    expect(parseEmail('a@example．com')).toMatchObject({ ok: true, asciiDomain: 'example.com' });
  });

  it('echoes a punycode domain as typed', () => {
    expect(parseEmail('info@xn--bcher-kva.de')).toMatchObject({ ok: true, domain: 'xn--bcher-kva.de' });
  });

  it('accepts a non-ASCII local part as SMTPUTF8 (RFC 6531) does', () => {
    expect(parseEmail('用户@例子.广告')).toMatchObject({
      ok: true,
      account: '用户',
      asciiDomain: 'xn--fsqu00a.xn--4rr70v',
    });
  });

  it('trims surrounding whitespace, lower-cases the domain and keeps the local part case', () => {
    expect(parseEmail('  John.Doe@EXAMPLE.com \n')).toMatchObject({
      ok: true,
      account: 'John.Doe',
      domain: 'example.com',
    });
  });
});
