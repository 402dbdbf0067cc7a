/**
 * Address ids: UUID-shaped, derived from the row and a per-data-set salt, so they cost no
 * memory, look random, change when the data set is replaced (as the API documents), and
 * decode back to the row with a 96-bit check (a forged or stale id finds nothing).
 */
export function saltOf(version: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < version.length; i++) h = Math.imul(h ^ version.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function mix(a: number, b: number): number {
  let z = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(b, 0xc2b2ae35)) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x2c1b3c6d);
  z = Math.imul(z ^ (z >>> 12), 0x297a2d39);
  return (z ^ (z >>> 15)) >>> 0;
}

function words(salt: number, row: number): [number, number, number] {
  const w1 = ((mix(salt ^ row, 1) & 0xffff0fff) | 0x4000) >>> 0;
  const w2 = ((mix(salt ^ row, 2) & 0x3fffffff) | 0x80000000) >>> 0;
  return [w1, w2, mix(salt ^ row, 3)];
}

const hex = (value: number, width: number): string => value.toString(16).padStart(width, '0');

export function encodeAddressId(salt: number, row: number): string {
  const [w1, w2, w3] = words(salt, row);
  const w0 = (row ^ mix(salt, w1)) >>> 0;
  return `${hex(w0, 8)}-${hex(w1 >>> 16, 4)}-${hex(w1 & 0xffff, 4)}-${hex(w2 >>> 16, 4)}-${hex(w2 & 0xffff, 4)}${hex(w3, 8)}`;
}

/** The row an id names, or -1 when it is malformed, from another data set, or out of range. */
export function decodeAddressId(salt: number, id: string, rowCount: number): number {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})([0-9a-f]{8})$/.exec(
    id.toLowerCase(),
  );
  if (!m) return -1;
  const w1 = Number.parseInt(m[2]! + m[3]!, 16);
  const row = (Number.parseInt(m[1]!, 16) ^ mix(salt, w1)) >>> 0;
  if (row >= rowCount) return -1;
  const [e1, e2, e3] = words(salt, row);
  const ok = e1 === w1 && e2 === Number.parseInt(m[4]! + m[5]!, 16) && e3 === Number.parseInt(m[6]!, 16);
  return ok ? row : -1;
}
