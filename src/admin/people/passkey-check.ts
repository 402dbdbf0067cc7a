import type { AuthenticatorTransport } from '@simplewebauthn/server';
import { StoreUnavailableError } from '#store';
import { type PasskeyDeps, takesChallenge } from './passkey-challenge.ts';
import { readAuthenticationJson } from './passkey-json.ts';
import { webauthnLibrary } from './webauthn-library.ts';

/** Whose passkey signed, and which. */
export interface PasskeyPassed {
  readonly userId: string;
  readonly factorId: string;
}

/**
 * A passkey's assertion (the JSON the portal's script posts), for the second step of `userId`'s
 * sign-in or, with `userId` null, for a sign-in without a password (the credential names the
 * person). Checked: a registered credential (of that person), the challenge issued for this
 * purpose and binding (taken: it works once), the origin and relying party, the signature, user
 * verification for a sign-in without a password, and a counter above the last one (taken in one
 * statement: an assertion counts once on every replica). Null when anything fails; the caller
 * applies the sign-in limits before calling.
 */
export async function checkPasskey(
  deps: PasskeyDeps,
  how: { purpose: 'second_step' | 'sign_in'; binding: string; userId: string | null },
  input: string,
): Promise<PasskeyPassed | null> {
  const response = readAuthenticationJson(input);
  if (!response) return null;
  const key = await deps.store.findPasskey(response.id);
  if (!key || (how.userId !== null && key.userId !== how.userId)) return null;
  const handle = response.response.userHandle;
  if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== key.userId) return null;
  const { verifyAuthenticationResponse } = await webauthnLibrary();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: takesChallenge(deps, how.purpose, how.binding, how.userId),
    expectedOrigin: deps.rp.origin,
    expectedRPID: deps.rp.id,
    credential: {
      id: key.credentialId,
      publicKey: Buffer.from(key.publicKey, 'base64url'),
      counter: key.signCount,
      transports: key.transports as AuthenticatorTransport[],
    },
    requireUserVerification: how.purpose === 'sign_in',
  }).catch((error: unknown) => {
    // A refusal of the assertion is a failed attempt; a store that does not answer is not.
    if (error instanceof StoreUnavailableError) throw error;
    return null;
  });
  if (!result?.verified) return null;
  if (!(await deps.store.acceptPasskeyCounter(key.id, result.authenticationInfo.newCounter))) return null;
  return { userId: key.userId, factorId: key.id };
}
