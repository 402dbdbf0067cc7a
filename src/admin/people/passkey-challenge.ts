import { createHash, randomBytes } from 'node:crypto';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Clock } from '#common';
import type { ChallengePurpose, PasskeyStore } from '#store';
import type { RelyingParty } from './passkey-rp.ts';
import { webauthnLibrary } from './webauthn-library.ts';

/** Time to touch the key or look at the phone; a challenge not used by then is refused. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** What a passkey step needs: the store, the clock that ends challenges, and the relying party. */
export interface PasskeyDeps {
  readonly store: Pick<
    PasskeyStore,
    'addPasskeyChallenge' | 'takePasskeyChallenge' | 'listPasskeys' | 'findPasskey' | 'acceptPasskeyCounter'
  >;
  readonly clock: Clock;
  readonly rp: RelyingParty;
}

/** What a challenge is bound to, for one purpose: a session's label or a sign-in form's nonce (a credential: only its digest is stored). */
export function bindingDigest(purpose: ChallengePurpose, binding: string): string {
  return createHash('sha256').update(`tokengate webauthn challenge\0${purpose}\0${binding}`).digest('hex');
}

/** A new single-use challenge (256 random bits, base64url), stored bound to `binding` and the person. */
export async function newChallenge(
  deps: PasskeyDeps,
  purpose: ChallengePurpose,
  binding: string,
  userId: string | null,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await deps.store.addPasskeyChallenge({
    challenge,
    purpose,
    binding: bindingDigest(purpose, binding),
    userId,
    expiresAt: deps.clock.now() + CHALLENGE_TTL_MS,
  });
  return challenge;
}

/** A challenge as the options generators take it: bytes (a string they would encode once more). */
export const challengeBytes = (challenge: string) => new Uint8Array(Buffer.from(challenge, 'base64url'));

/** The check `verify*Response` makes of the challenge the browser signed: it is taken, so it works once. */
export function takesChallenge(deps: PasskeyDeps, purpose: ChallengePurpose, binding: string, userId: string | null) {
  return (challenge: string) =>
    deps.store.takePasskeyChallenge(challenge, purpose, bindingDigest(purpose, binding), userId);
}

/**
 * What `navigator.credentials.get` is given: for the second step, the person's passkeys; for a
 * sign-in without a password none (the browser offers the passkeys it has for the site), and the
 * authenticator must verify the person (PIN, fingerprint): the passkey is then both factors.
 */
export async function passkeyRequestOptions(
  deps: PasskeyDeps,
  purpose: 'second_step' | 'sign_in',
  binding: string,
  userId: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowCredentials = userId
    ? (await deps.store.listPasskeys(userId)).map((key) => ({ id: key.credentialId, transports: key.transports }))
    : [];
  const { generateAuthenticationOptions } = await webauthnLibrary();
  return generateAuthenticationOptions({
    rpID: deps.rp.id,
    challenge: challengeBytes(await newChallenge(deps, purpose, binding, userId)),
    allowCredentials,
    userVerification: purpose === 'sign_in' ? 'required' : 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
}
