/**
 * How a claim becomes the value of a claim header (`claimHeaders:`), defined so that no claim can
 * add a header, a second value or a byte Node would refuse (docs/configuration.md, "Claim
 * headers"):
 * - a string: its UTF-8 bytes, every byte outside `A-Z a-z 0-9 - . _ ~ @ : /` written `%XX`
 *   (upper-case hex), so CR, LF, `,`, `;`, `"`, `%`, spaces and non-ASCII are all encoded and
 *   any percent-decoder (`decodeURIComponent`) gives the string back;
 * - a number or boolean: its JSON text, encoded as a string;
 * - an array of strings, numbers and booleans: each element encoded as above, joined by `,`
 *   (an element cannot hold a raw `,`, so the list splits back exactly);
 * - anything else (an object, an array holding an object or array): its JSON text, encoded as
 *   one string;
 * - absent, `null` or an empty array: no header.
 * A value longer than MAX_CLAIM_HEADER_LENGTH once encoded sends no header either: an upstream's
 * header limit (16 KiB in Node) would otherwise answer 431 for a claim it never asked to see.
 */
export const MAX_CLAIM_HEADER_LENGTH = 4096;

const SAFE = /^[A-Za-z0-9\-._~@:/]*$/;
const UNSAFE_CHAR = /[^A-Za-z0-9\-._~@:/]/gu;

export function claimHeaderValue(claim: unknown): string | undefined {
  if (claim === undefined || claim === null) return undefined;
  let value: string;
  if (Array.isArray(claim)) {
    if (claim.length === 0) return undefined;
    value = claim.every(isScalar) ? claim.map(encodeScalar).join(',') : encodeText(JSON.stringify(claim));
  } else value = isScalar(claim) ? encodeScalar(claim) : encodeText(JSON.stringify(claim) ?? '');
  return value.length <= MAX_CLAIM_HEADER_LENGTH ? value : undefined;
}

function isScalar(value: unknown): value is string | number | boolean {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean';
}

function encodeScalar(value: string | number | boolean): string {
  return encodeText(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Percent-encodes the UTF-8 of `text` outside the safe set; plain values (the usual case) pass untouched. */
function encodeText(text: string): string {
  if (SAFE.test(text)) return text;
  // encodeURIComponent is UTF-8 percent-encoding already; it leaves `!'()*` alone, and a lone
  // surrogate (which JSON may carry) makes it throw, so those are handled here.
  return text.replace(UNSAFE_CHAR, (char) => {
    if (/[!'()*]/.test(char)) return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD'; // U+FFFD: what a UTF-8 encoder writes for a lone surrogate
    }
  });
}
