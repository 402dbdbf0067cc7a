import { createVerifier, type RouteRequirement, type Verifier, type VerifierOptions } from '#auth';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import {
  createTokenKit,
  simpleRevocations,
  staticKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestKey,
  type TokenKit,
} from '#test/tokens.ts';

export const ANY: RouteRequirement = { scopes: [], match: 'any' };
export const ADDRESS: RouteRequirement = { scopes: ['address'], match: 'any' };

export interface VerifierFixture {
  clock: FakeClock;
  kit: TokenKit;
  keys: ReturnType<typeof staticKeys>;
  revocations: ReturnType<typeof simpleRevocations>;
  verifier: Verifier;
}

/** A verifier over static keys and a controllable revocation list, on a fake clock. */
export async function verifierFixture(
  overrides: Partial<VerifierOptions> = {},
  key?: TestKey,
): Promise<VerifierFixture> {
  const clock = createFakeClock();
  const kit = await createTokenKit(clock, key);
  const keys = staticKeys(kit.key);
  const revocations = simpleRevocations();
  const verifier = createVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    algorithms: [kit.key.alg],
    keys,
    revocations,
    clock,
    ...overrides,
  });
  return { clock, kit, keys, revocations, verifier };
}
