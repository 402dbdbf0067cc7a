import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Address syntax as real mail systems accept it (RFC 5321 section 4.1.2 / RFC 5322 section 3.4.1):
 * - local part: a dot-atom (atext runs joined by single dots), at most 64 octets; non-ASCII
 *   letters are allowed as RFC 6531/6532 (SMTPUTF8) do. Quoted local parts (`"a b"@x`) are
 *   refused on purpose: legal in the RFCs, but no mailbox provider hands them out and most
 *   senders reject them, so accepting one would verify an address mail cannot reach.
 * - domain: a host name of at least two labels (IDN converted to ASCII with punycode,
 *   UTS #46), each label 1-63 LDH octets not starting or ending with a hyphen, at most 253
 *   octets, a TLD that is not all digits. Address literals (`[192.0.2.1]`) are refused.
 * - whole address: at most 254 octets (RFC 5321 path limit of 256 less the angle brackets).
 */
export type SyntaxResult =
  | { readonly ok: true; readonly account: string; readonly domain: string; readonly asciiDomain: string }
  | { readonly ok: false; readonly account: string | null; readonly domain: string | null };

const ATEXT = String.raw`[A-Za-z0-9!#$%&'*+/=?^_\x60{|}~\-]|[^\x00-\x7F\p{White_Space}\p{Cc}]`;
const DOT_ATOM = new RegExp(`^(?:${ATEXT})+(?:\\.(?:${ATEXT})+)*$`, 'u');
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export const MAX_LOCAL_OCTETS = 64;
export const MAX_DOMAIN_OCTETS = 253;
export const MAX_ADDRESS_OCTETS = 254;

function octets(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function validLocalPart(local: string): boolean {
  return octets(local) <= MAX_LOCAL_OCTETS && DOT_ATOM.test(local);
}

/**
 * What a domain may hold before conversion: letters, marks and digits of any script (IDNs),
 * hyphens, and the dots UTS #46 separates labels with. domainToASCII runs the WHATWG host
 * parser, which percent-decodes (`exa%41mple` → `exaample`) and drops TAB, CR, LF and the
 * default-ignorable characters (soft hyphen, zero-width space, variation selectors), so such a
 * domain would be checked and echoed as another domain than the one sent.
 */
const DOMAIN_TEXT = /^[\p{L}\p{M}\p{N}\-.\u3002\uff0e\uff61]+$/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/** The ASCII (punycode) form of a valid mail domain, or undefined. */
function asciiMailDomain(domain: string): string | undefined {
  if (!DOMAIN_TEXT.test(domain) || IGNORABLE.test(domain) || domain.endsWith('.')) return undefined;
  const ascii = domainToASCII(domain);
  if (ascii === '' || ascii.length > MAX_DOMAIN_OCTETS) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  return /^[0-9]+$/.test(labels[labels.length - 1] ?? '') ? undefined : ascii;
}

export function parseEmail(input: string): SyntaxResult {
  const text = input.trim();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) {
    return {
      ok: false,
      account: at > 0 ? text.slice(0, at) : null,
      domain: at >= 0 ? text.slice(at + 1) || null : null,
    };
  }
  const account = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  const asciiDomain = asciiMailDomain(rawDomain);
  if (!asciiDomain || !validLocalPart(account) || octets(account) + 1 + asciiDomain.length > MAX_ADDRESS_OCTETS) {
    return { ok: false, account, domain: rawDomain };
  }
  // A domain typed in ASCII (including punycode) is echoed in lower case; a Unicode one in its
  // normalised Unicode form.
  const domain = /\P{ASCII}/u.test(rawDomain) ? domainToUnicode(asciiDomain) : asciiDomain;
  return { ok: true, account, domain, asciiDomain };
}
