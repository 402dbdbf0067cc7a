/**
 * Serialises a Dictionary of string members as an HTTP Structured Field (RFC 9651): the format
 * of the identity header, so any structured-field parser reads it. Keys are the caller's
 * constants (lower-case sf-keys). A printable-ASCII value becomes an sf-string (`"…"`, with `"`
 * and `\` escaped, §4.1.6); anything else a Display String (`%"…"`: UTF-8 with `%`, `"` and every
 * byte outside 0x20–0x7E percent-encoded, §4.1.11). So no value can break the header or make
 * Node refuse it (CR, LF and non-Latin-1 characters throw in `setHeader`).
 */
export function sfDictionary(members: ReadonlyArray<readonly [key: string, value: string]>): string {
  return members.map(([key, value]) => `${key}=${sfValue(value)}`).join(', ');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function sfValue(value: string): string {
  if (PRINTABLE_ASCII.test(value)) return `"${value.replace(/["\\]/g, '\\$&')}"`;
  let out = '%"';
  for (const byte of Buffer.from(value, 'utf8')) {
    out +=
      byte === 0x25 || byte === 0x22 || byte < 0x20 || byte > 0x7e
        ? `%${byte.toString(16).padStart(2, '0')}`
        : String.fromCharCode(byte);
  }
  return `${out}"`;
}
