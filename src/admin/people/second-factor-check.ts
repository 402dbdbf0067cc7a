import type { Clock } from '#common';
import type { SecondFactorStore } from '#store';
import { readCode, recoveryCodeHash } from './second-factor-codes.ts';
import { matchTotp } from './totp.ts';

/** How the second step was passed: a code of an authenticator app, or a recovery code (now used up). */
export type SecondFactorPassed = 'totp' | 'recovery_code';

/**
 * The second step of a sign-in: a current code of one of the person's TOTP factors, not accepted
 * before (the step is taken in one statement, so a code works once across every replica), or an
 * unused recovery code. Null when neither. The caller applies the sign-in limits before calling.
 */
export async function checkSecondFactor(
  store: Pick<SecondFactorStore, 'listTotpFactors' | 'acceptTotpStep' | 'useRecoveryCode'>,
  clock: Clock,
  userId: string,
  input: string,
): Promise<SecondFactorPassed | null> {
  const typed = readCode(input);
  if (typed.kind === 'recovery')
    return (await store.useRecoveryCode(userId, recoveryCodeHash(userId, typed.code))) ? 'recovery_code' : null;
  if (typed.kind !== 'totp') return null;
  for (const factor of await store.listTotpFactors(userId)) {
    const step = matchTotp(factor.secret, typed.code, clock.now(), factor.lastStep);
    if (step !== null && (await store.acceptTotpStep(factor.id, step))) return 'totp';
  }
  return null;
}
