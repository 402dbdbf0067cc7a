import { sign } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteRequirement } from '#auth';
import { bearer } from '#test/tokens.ts';
import { ANY, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

const PHONE: RouteRequirement = { scopes: ['phone'], match: 'any' };

/** The Authorization value of issue 17: protected header `{"alg":{"toString":0}}`. */
const ISSUE_17_AUTHORIZATION = 'Bearer eyJhbGciOnsidG9TdHJpbmciOjB9fQ.e30.AA';

function b64(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * Values JSON can carry that no string conversion survives: an object whose toString and valueOf
 * are not functions makes `String(x)` and `${x}` throw. The verifier must judge them by type only.
 */
const UNPRINTABLE = ['{"toString":0}', '{"toString":0,"valueOf":0}', '{"valueOf":{},"toString":[]}', '{"__proto__":0}'];

describe('verifier: values taken from a token are never formatted before their type is checked', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });

  it('regression (issue 17): refuses a header whose alg is {"toString":0} as invalid_token instead of throwing', () => {
    expect(ISSUE_17_AUTHORIZATION.slice(7).split('.')[0]).toBe(b64('{"alg":{"toString":0}}'));
    expect(f.verifier.authorize(ISSUE_17_AUTHORIZATION, PHONE)).toMatchObject({ ok: false, kind: 'invalid_token' });
    // The second sighting comes from the negative cache: still a refusal.
    expect(f.verifier.authorize(ISSUE_17_AUTHORIZATION, PHONE)).toMatchObject({ ok: false, kind: 'invalid_token' });
  });

  it.each(UNPRINTABLE)('refuses alg, kid and typ given as %s, keeping the rest of a genuine token', async (value) => {
    const [, payload, signature] = (await f.kit.goodToken()).split('.');
    const { kid } = f.kit.key;
    const headers = [
      `{"alg":${value},"kid":"${kid}","typ":"at+jwt"}`,
      `{"alg":"RS256","kid":${value},"typ":"at+jwt"}`,
      `{"alg":"RS256","kid":"${kid}","typ":${value}}`,
    ];
    for (const header of headers) {
      const decision = f.verifier.authorize(bearer(`${b64(header)}.${payload}.${signature}`), ANY);
      expect(decision).toMatchObject({ ok: false, kind: 'invalid_token' });
    }
  });

  it('says in the failure detail what type an alg was, never its content', () => {
    const decision = f.verifier.authorize(ISSUE_17_AUTHORIZATION, PHONE);
    expect(decision).toMatchObject({ ok: false, detail: 'alg of type object not pinned' });
  });

  it('refuses an Authorization value that is not a string (a host passing an array) instead of throwing', () => {
    const values: unknown[] = [['Bearer a.b.c'], 42, {}, null, { toString: 0 }];
    for (const value of values) {
      expect(f.verifier.authorize(value as string, ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
    }
  });
});

describe('verifier: header and payload must be valid UTF-8', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });

  /** `text` with `bytes` in place of the marker `@@`, as raw bytes (not re-encoded). */
  function withBytes(text: string, bytes: readonly number[]): Buffer {
    const [before, after] = text.split('@@') as [string, string];
    return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
  }

  /** Signed correctly with the verifier's own key: only the encoding of the bytes is wrong. */
  function signed(header: Buffer, payload: Buffer): string {
    const input = `${header.toString('base64url')}.${payload.toString('base64url')}`;
    return `${input}.${sign('sha256', Buffer.from(input), f.kit.key.privateKey).toString('base64url')}`;
  }

  const headerText = () => JSON.stringify({ alg: 'RS256', kid: f.kit.key.kid, typ: 'at+jwt' });
  const payloadText = () => JSON.stringify(f.kit.claimsFor());

  const INVALID: ReadonlyArray<{ readonly name: string; readonly bytes: readonly number[] }> = [
    { name: 'ff (never UTF-8)', bytes: [0xff] },
    { name: 'ed a0 80 (a lone surrogate, CESU-8)', bytes: [0xed, 0xa0, 0x80] },
    { name: 'c0 af (an overlong "/")', bytes: [0xc0, 0xaf] },
    { name: 'e2 82 (a cut-off sequence)', bytes: [0xe2, 0x82] },
  ];

  it('accepts the same construction with valid UTF-8 bytes (é, and a 4-byte emoji)', () => {
    const payload = JSON.stringify(f.kit.claimsFor({ claims: { sub: 'client-@@' } }));
    const token = signed(Buffer.from(headerText()), withBytes(payload, [0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]));
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: true, token: { sub: 'client-é😀' } });
  });

  it.each(INVALID)('refuses a correctly signed token whose payload holds the bytes $name in a claim', ({ bytes }) => {
    const payload = JSON.stringify(f.kit.claimsFor({ claims: { sub: 'client-@@' } }));
    const token = signed(Buffer.from(headerText()), withBytes(payload, bytes));
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
  });

  it.each(INVALID)('refuses a correctly signed token whose header holds the bytes $name in a member', ({ bytes }) => {
    const header = JSON.stringify({ alg: 'RS256', kid: f.kit.key.kid, typ: 'at+jwt', note: '@@' });
    const token = signed(withBytes(header, bytes), Buffer.from(payloadText()));
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
  });

  it('refuses a payload that starts with a byte order mark (JSON text has none), as before', () => {
    const token = signed(Buffer.from(headerText()), withBytes(`@@${payloadText()}`, [0xef, 0xbb, 0xbf]));
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
  });
});
