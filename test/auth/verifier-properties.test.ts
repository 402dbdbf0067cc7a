import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AuthDecision, createVerifier, type RouteRequirement, type Verifier } from '#auth';
import {
  jsonObject,
  type Member,
  membersOf,
  mutation,
  oddJson,
  oddName,
  oddStringJson,
  presentation,
  randomAuthorization,
  signSegments,
} from '#test/hostile-tokens.ts';
import { createTestKey, TEST_AUDIENCE, TEST_ISSUER, type TestAlg } from '#test/tokens.ts';
import { ADDRESS, ANY, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

/**
 * Property-based tests of the plugin against hostile input (issue 17): whatever the
 * Authorization value, `authorize` never throws, never returns a promise that rejects, and never
 * allows anything but a correctly signed token with valid claims. Budgets are fixed (numRuns);
 * a failure prints its seed and the shrunk counterexample.
 */

const REQUIREMENTS: readonly RouteRequirement[] = [ANY, ADDRESS, { scopes: ['phone', 'email'], match: 'all' }];
const KINDS = new Set(['credentials_missing', 'invalid_token', 'token_revoked', 'token_expired', 'insufficient_scope']);

interface Subject {
  readonly name: string;
  readonly verifier: Verifier;
}

interface Setup {
  readonly f: VerifierFixture;
  /** The same key and clock behind the plain verifier, and behind a batched one that may refetch. */
  readonly subjects: readonly Subject[];
  readonly genuine: readonly string[];
}

async function setUp(alg: TestAlg): Promise<Setup> {
  const f = await verifierFixture({}, await createTestKey(alg));
  const batched = createVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    algorithms: [alg],
    keys: { ...f.keys, refreshFor: async () => undefined },
    revocations: f.revocations,
    clock: f.clock,
    batchSignatureChecks: true,
  });
  const genuine = await Promise.all([
    f.kit.goodToken(),
    f.kit.tokenWithScopes(['address']),
    f.kit.goodToken({ claims: { nbf: f.clock.nowSec() } }),
  ]);
  return {
    f,
    subjects: [
      { name: 'synchronous', verifier: f.verifier },
      { name: 'batched, with refetch', verifier: batched },
    ],
    genuine,
  };
}

/** The decision, awaited when it is a promise: a throw or a rejection fails the property. */
async function judge(verifier: Verifier, authorization: string, requirement: RouteRequirement): Promise<AuthDecision> {
  const returned = verifier.authorize(authorization, requirement);
  const decision = returned instanceof Promise ? await returned : returned;
  if (!decision.ok) {
    expect(KINDS.has(decision.kind)).toBe(true);
    expect(typeof decision.detail).toBe('string');
  }
  return decision;
}

/** What a correctly signed token with valid claims looks like, member by member, as JSON text. */
function genuineMembers(s: Setup): { header: Member[]; payload: Member[] } {
  const { key } = s.f.kit;
  return {
    header: membersOf({ alg: key.alg, kid: key.kid, typ: 'at+jwt' }),
    payload: membersOf(s.f.kit.claimsFor()),
  };
}

/**
 * For each member the verifier checks: JSON values that must make a correctly signed token
 * invalid. `now` and `iat` are the fixture clock's. `missing` removes the member, `hidden` moves it
 * under a `__proto__` key (an own property of the parsed object, never its prototype).
 */
function invalidValues(s: Setup): Record<string, fc.Arbitrary<string>> {
  const now = s.f.clock.nowSec();
  const audience = JSON.stringify(TEST_AUDIENCE);
  const otherAlg = s.f.kit.key.alg === 'RS256' ? '"ES256"' : '"RS256"';
  const notAString = oddJson;
  const badString = fc.constantFrom('""', `"${'a'.repeat(1025)}"`);
  const unlike = (valid: string) => (json: string) => JSON.parse(json) !== valid;
  return {
    alg: fc.oneof(notAString, oddStringJson, fc.constantFrom('"none"', '"HS256"', '"rs256"', '" RS256"', otherAlg)),
    kid: fc.oneof(notAString, oddStringJson.filter(unlike(s.f.kit.key.kid)), fc.constant(`"${'k'.repeat(257)}"`)),
    typ: fc.oneof(
      notAString,
      oddStringJson,
      fc.constantFrom('"JWT"', '"at+jwt "', '"application/jwt"', '"at+jwt\\u0000"'),
    ),
    iss: fc.oneof(notAString, oddStringJson, fc.constantFrom(`"${TEST_ISSUER}/"`, '"http://evil.test"')),
    aud: fc.oneof(
      notAString,
      oddStringJson,
      fc.constantFrom(`[${Array(17).fill(audience).join(',')}]`, '["http://other.test"]', `[[${audience}]]`),
    ),
    sub: fc.oneof(notAString, badString),
    client_id: fc.oneof(notAString, badString),
    jti: fc.oneof(notAString, badString),
    project_id: fc.oneof(notAString, badString),
    scope: fc.oneof(notAString, fc.constant(`"${'address '.repeat(129)}"`)),
    iat: fc.oneof(notAString, fc.constantFrom(`"${now}"`, `${now + 3600}`, `${now}.5`)),
    exp: fc.oneof(
      notAString,
      fc.constantFrom(`"${now + 900}"`, `${now}`, `${now - 1}`, `${now + 3601}`, `${now + 1e15}`),
    ),
    nbf: fc.oneof(notAString, fc.constantFrom(`"${now}"`, `${now + 3600}`, `${now}.5`)),
  };
}

const HEADER_NAMES = new Set(['alg', 'kid', 'typ']);
/** Members whose absence is valid: no nbf, no scope (a token for routes without scopes). */
const OPTIONAL = new Set(['nbf', 'scope']);

for (const alg of ['RS256', 'ES256'] as const) {
  describe(`verifier properties (${alg})`, () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(alg);
      for (const subject of s.subjects)
        for (const token of s.genuine)
          expect(await judge(subject.verifier, `Bearer ${token}`, ANY)).toMatchObject({ ok: true });
    });

    it('never throws, never rejects and never allows an Authorization value that holds no genuine token', async () => {
      await fc.assert(
        fc.asyncProperty(randomAuthorization, fc.constantFrom(...REQUIREMENTS), async (authorization, requirement) => {
          for (const { verifier } of s.subjects)
            expect(await judge(verifier, authorization, requirement)).toMatchObject({ ok: false });
        }),
        { numRuns: 1000 },
      );
    });

    it('allows a mutated genuine token only when the mutations gave the genuine token back, presented as "Bearer <token>"', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...s.genuine),
          fc.array(mutation, { minLength: 1, maxLength: 3 }),
          presentation,
          fc.constantFrom(...REQUIREMENTS),
          async (token, mutations, present, requirement) => {
            const authorization = present(mutations.reduce((t, m) => m(t), token));
            for (const { verifier } of s.subjects) {
              const decision = await judge(verifier, authorization, requirement);
              if (decision.ok) {
                // RFC 6750 §2.1: the scheme, one or more spaces, then the token.
                expect(authorization.slice(0, 7).toLowerCase()).toBe('bearer ');
                expect(s.genuine).toContain(authorization.slice(7).replace(/^ +/, ''));
              }
            }
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('refuses a correctly signed token whose alg, kid, typ or a required claim is of the wrong type, out of range, missing or hidden under __proto__', async () => {
      const invalid = invalidValues(s);
      const change = fc.constantFrom(...Object.keys(invalid)).chain((name) =>
        fc.record({
          name: fc.constant(name),
          how: OPTIONAL.has(name) ? fc.constant('value' as const) : fc.constantFrom('value', 'missing', 'hidden'),
          value: invalid[name] as fc.Arbitrary<string>,
        }),
      );
      const extras = fc.array(fc.tuple(oddName, oddJson), { maxLength: 3 });
      await fc.assert(
        fc.asyncProperty(change, extras, async ({ name, how, value }, extra) => {
          const { header, payload } = genuineMembers(s);
          const target = HEADER_NAMES.has(name) ? header : payload;
          const rest = target.filter(([n]) => n !== name);
          const changed: Member[] =
            how === 'value'
              ? [...rest, [name, value]]
              : how === 'missing'
                ? rest
                : [...rest, ['__proto__', jsonObject(target.filter(([n]) => n === name))]];
          target.splice(0, target.length, ...extra.filter(([n]) => n !== '__proto__' || how !== 'hidden'), ...changed);
          const token = signSegments(s.f.kit.key, jsonObject(header), jsonObject(payload));
          for (const { verifier } of s.subjects)
            expect(await judge(verifier, `Bearer ${token}`, ANY)).toMatchObject({ ok: false });
        }),
        { numRuns: 300 },
      );
    });

    it('refuses a correctly signed token whose header or payload holds bytes that are not UTF-8', async () => {
      // Bytes that are not UTF-8, with no quote, backslash or control byte: repaired with U+FFFD
      // (Buffer#toString) the JSON would still parse, and the claims be valid.
      const notUtf8 = fc
        .uint8Array({ minLength: 1, maxLength: 8 })
        .map((bytes) => Buffer.from(bytes))
        .filter((bytes) => !isUtf8(bytes) && bytes.every((b) => b >= 0x20 && b !== 0x22 && b !== 0x5c));
      await fc.assert(
        fc.asyncProperty(notUtf8, fc.boolean(), async (bytes, inHeader) => {
          const { header, payload } = genuineMembers(s);
          const target = inHeader ? header : payload;
          target.push(['note', '"@@"']);
          const [before, after] = jsonObject(target).split('@@') as [string, string];
          const raw = Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]);
          expect(() => JSON.parse(raw.toString('utf8'))).not.toThrow();
          const token = inHeader
            ? signSegments(s.f.kit.key, raw, jsonObject(payload))
            : signSegments(s.f.kit.key, jsonObject(header), raw);
          for (const { verifier } of s.subjects)
            expect(await judge(verifier, `Bearer ${token}`, ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
        }),
        { numRuns: 100 },
      );
    });

    it('allows a correctly signed token whatever extra members of odd types its header and payload carry', async () => {
      // Small enough that the token stays under the 8192-character limit.
      const extras = fc.array(
        fc.tuple(
          oddName,
          oddJson.filter((json) => json.length <= 300),
        ),
        { maxLength: 4 },
      );
      await fc.assert(
        fc.asyncProperty(extras, extras, fc.nat(), async (headerExtras, payloadExtras, at) => {
          const { header, payload } = genuineMembers(s);
          header.splice(at % (header.length + 1), 0, ...headerExtras);
          payload.splice(at % (payload.length + 1), 0, ...payloadExtras);
          const token = signSegments(s.f.kit.key, jsonObject(header), jsonObject(payload));
          for (const { verifier } of s.subjects)
            expect(await judge(verifier, `Bearer ${token}`, ANY)).toMatchObject({ ok: true });
        }),
        { numRuns: 100 },
      );
    });
  });
}
