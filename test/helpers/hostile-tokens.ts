import { sign } from 'node:crypto';
import fc from 'fast-check';
import type { TestKey } from './tokens.ts';

/**
 * fast-check arbitraries for hostile tokens and Authorization values (issue 17): what an
 * attacker can put in front of the verifier. Tokens are derived from genuine ones minted at test
 * time, so every case is one mutation away from something the verifier accepts.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Signs `header.payload` (raw bytes, not re-encoded) with a test key, as an issuer would. */
export function signSegments(key: TestKey, header: string | Buffer, payload: string | Buffer): string {
  const input = `${Buffer.from(header).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
  const data = Buffer.from(input);
  const signature =
    key.alg === 'EdDSA'
      ? sign(null, data, key.privateKey)
      : key.alg === 'ES256'
        ? sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', data, key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

/** One JSON member, its value as JSON text (so duplicates, `__proto__` and `1e400` survive). */
export type Member = readonly [name: string, json: string];

export function jsonObject(members: readonly Member[]): string {
  return `{${members.map(([name, json]) => `${JSON.stringify(name)}:${json}`).join(',')}}`;
}

export function membersOf(value: Record<string, unknown>): Member[] {
  return Object.entries(value).map(([name, v]) => [name, JSON.stringify(v)]);
}

/**
 * JSON texts no checked member may hold: objects whose toString/valueOf are not functions (String()
 * of them throws), prototype and coercion hooks as keys, arrays, deep nesting, null, booleans,
 * numbers no NumericDate is (huge, negative, fractional, past 2^53).
 */
export const oddJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{"toString":0}',
    '{"toString":0,"valueOf":0}',
    '{"valueOf":{},"toString":[]}',
    '{"toString":{"toString":0}}',
    '{"__proto__":{"toString":0}}',
    '{"__proto__":null}',
    '{"constructor":{"prototype":0}}',
    '{"toJSON":0}',
    '{"Symbol(Symbol.toPrimitive)":0,"@@toPrimitive":0}',
    '{"length":1,"0":"RS256"}',
    '{}',
    '[]',
    '[{"toString":0}]',
    '[["RS256"]]',
    'null',
    'true',
    'false',
    '1e400',
    '-1e400',
    '-1',
    '1.5',
    '1e21',
    '9007199254740993',
    '123456789012345678901234567890',
  ),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 300 }).map((depth) => `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`),
);

/** A string as JSON text: escapes for a NUL and a lone surrogate, and lengths past every limit. */
export const oddStringJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('""', '"\\u0000"', '"\\ud800"', '"\\ufeff"', `"${'a'.repeat(1025)}"`, `"${'é'.repeat(2000)}"`),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
);

/** Extra member names that mean something to JavaScript, never to the verifier. */
export const oddName: fc.Arbitrary<string> = fc.constantFrom(
  'x',
  'toString',
  'valueOf',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toJSON',
  'length',
  '0',
  '',
);

/** A char that fits a token (base64url), or one that never should. */
const tokenChar = fc.constantFrom(...ALPHABET);
const strayChar = fc.oneof(
  fc.constantFrom(
    '.',
    '=',
    '+',
    '/',
    '~',
    ' ',
    '\t',
    '\r',
    '\n',
    '\u0000',
    '\u00a0',
    '\u2028',
    'é',
    '\ud800',
    '\uffff',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const anyChar = fc.oneof({ arbitrary: tokenChar, weight: 3 }, { arbitrary: strayChar, weight: 1 });

export type Mutation = (token: string) => string;

function atSegment(token: string, segment: number, edit: (text: string) => string): string {
  const parts = token.split('.');
  const index = segment % parts.length;
  parts[index] = edit(parts[index] ?? '');
  return parts.join('.');
}

function flipBit(text: string, at: number, bit: number): string {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length === 0) return text;
  const index = at % bytes.length;
  bytes[index] = (bytes[index] ?? 0) ^ (1 << bit);
  return bytes.toString('base64url');
}

/** One edit of a compact JWS: chars and bits in each segment, order, length, extra segments. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ segment: fc.nat(2), at: fc.nat(), char: anyChar }).map(
    ({ segment, at, char }): Mutation =>
      (t) =>
        atSegment(t, segment, (s) => replaceAt(s, at, char)),
  ),
  fc.record({ segment: fc.nat(2), at: fc.nat(), bit: fc.nat(7) }).map(
    ({ segment, at, bit }): Mutation =>
      (t) =>
        atSegment(t, segment, (s) => flipBit(s, at, bit)),
  ),
  fc.constantFrom([1, 0, 2], [0, 2, 1], [2, 1, 0], [1, 2, 0], [2, 0, 1], [0, 0, 2], [0, 1, 1]).map(
    (order): Mutation =>
      (t) =>
        order.map((i) => t.split('.')[i] ?? '').join('.'),
  ),
  fc.record({ at: fc.nat(), text: fc.string({ unit: anyChar, minLength: 1, maxLength: 4 }) }).map(
    ({ at, text }): Mutation =>
      (t) =>
        insertAt(t, at % (t.length + 1), text),
  ),
  fc.record({ at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }).map(
    ({ at, count }): Mutation =>
      (t) =>
        t.slice(0, at % t.length) + t.slice((at % t.length) + count),
  ),
  fc.string({ unit: anyChar, minLength: 1, maxLength: 6 }).map(
    (text): Mutation =>
      (t) =>
        t + text,
  ),
  fc.string({ unit: anyChar, minLength: 1, maxLength: 6 }).map(
    (text): Mutation =>
      (t) =>
        text + t,
  ),
  fc.constantFrom<Mutation>(
    (t) => `${t}.`,
    (t) => `${t}.${t.split('.')[2]}`,
    (t) => `.${t}`,
    (t) => t.replace('.', '..'),
    (t) => `${t}=`,
    (t) => `${t}==`,
    (t) => t.slice(0, t.lastIndexOf('.') + 1),
    (t) => t.replaceAll('-', '+').replaceAll('_', '/'),
    (t) => t.toUpperCase(),
    (t) => t.repeat(2),
  ),
  // The header re-encoded with an odd alg, kid or typ (the payload and signature kept).
  fc.record({ name: fc.constantFrom('alg', 'kid', 'typ'), value: fc.oneof(oddJson, oddStringJson) }).map(
    ({ name, value }): Mutation =>
      (t) =>
        atSegment(t, 0, (s) => reencode(s, name, value)),
  ),
);

function replaceAt(text: string, at: number, char: string): string {
  if (text.length === 0) return char;
  const i = at % text.length;
  return text.slice(0, i) + char + text.slice(i + 1);
}

function insertAt(text: string, at: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at);
}

/** The segment's JSON object with one member's value replaced (a segment already garbled becomes just that member). */
function reencode(segment: string, name: string, value: string): string {
  let members: Member[];
  try {
    members = membersOf(JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>);
  } catch {
    members = [];
  }
  const replaced: Member[] = [...members.filter(([n]) => n !== name), [name, value]];
  return Buffer.from(jsonObject(replaced)).toString('base64url');
}

/** How the token is presented: the scheme in any case and spacing, and what may trail it. */
export const presentation: fc.Arbitrary<(token: string) => string> = fc
  .record({
    scheme: fc.constantFrom(
      'Bearer ',
      'bearer ',
      'BEARER ',
      'bEaReR ',
      'Bearer  ',
      'Bearer\t',
      ' Bearer ',
      'Bearer',
      'Bearer\u00a0',
      'Bearer\r\n ',
      'Basic ',
      'Token ',
      'Bearer=',
      '',
    ),
    trailer: fc.constantFrom('', '', '', ' ', '\t', '\r\n', '\u0000', ',', ', Bearer x'),
  })
  .map(
    ({ scheme, trailer }) =>
      (token: string) =>
        `${scheme}${token}${trailer}`,
  );

/** Authorization values with no genuine token in them at all. */
export const randomAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'binary-ascii', maxLength: 64 }),
  fc
    .array(fc.string({ unit: anyChar, maxLength: 40 }), { minLength: 1, maxLength: 5 })
    .map((parts) => `Bearer ${parts.join('.')}`),
  fc
    .tuple(fc.oneof(oddJson, oddStringJson), fc.oneof(oddJson, fc.constant('{}')), fc.base64String({ maxLength: 40 }))
    .map(
      ([alg, payload, sig]) =>
        `Bearer ${Buffer.from(`{"alg":${alg}}`).toString('base64url')}.${Buffer.from(payload).toString('base64url')}.${sig.replace(/=+$/, '')}`,
    ),
  fc.integer({ min: 8000, max: 20000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
);
