import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { StoreUnavailableError } from '#store';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { badRequest, conflict } from '../errors.ts';
import { webauthnLibrary } from './webauthn-library.ts';
import {
  CHALLENGE_TTL_MS,
  challengeBytes,
  newChallenge,
  type PasskeyDeps,
  takesChallenge,
} from './passkey-challenge.ts';
import { readRegistrationJson } from './passkey-json.ts';
import { relyingParty } from './passkey-rp.ts';
import { codesIfFirstFactor, type ConfirmedTotp, FACTOR_LABEL_MAX_LENGTH, MAX_FACTORS } from './second-factor-enrol.ts';
import { now, ownUser, recordFactorChange } from './second-factor-person.ts';

/** The relying party of the admin service's portal, and the store and clock, for a passkey step. */
export function passkeyDeps(ctx: AdminContext): PasskeyDeps {
  return {
    store: ctx.store,
    clock: { now: () => now(ctx) },
    rp: relyingParty(ctx.portalUrl?.() ?? 'http://localhost/portal'),
  };
}

/**
 * EdDSA, ES256 and RS256 (COSE -8, -7, -257): what authenticators make. Named rather than left to
 * the library, whose default adds ML-DSA where Node has it: keys and signatures of kilobytes,
 * beyond the bounds the posted answer is read with (passkey-json.ts).
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** The label of the person's session: a passkey is added in the session that asked for its challenge. */
const sessionOf = (actor: Actor) => ('session' in actor ? actor.session : '');

/**
 * What `navigator.credentials.create` is given to add a passkey: a challenge bound to the person's
 * session (the actor's session label), their passkeys to exclude (no second copy of one), and a
 * discoverable credential asked for, so the passkey can also sign in without the password. The user
 * handle is the person's id (no email or name in it).
 */
export async function startPasskeySetup(
  ctx: AdminContext,
  actor: Actor,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await ownUser(ctx, actor);
  if ((await ctx.store.listFactors(user.id)).length >= MAX_FACTORS)
    throw conflict(`you have ${MAX_FACTORS} second factors already: remove one first`);
  const deps = passkeyDeps(ctx);
  const existing = await ctx.store.listPasskeys(user.id);
  const { generateRegistrationOptions } = await webauthnLibrary();
  return generateRegistrationOptions({
    rpName: deps.rp.name,
    rpID: deps.rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    challenge: challengeBytes(await newChallenge(deps, 'register', sessionOf(actor), user.id)),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
}

/**
 * Adds the passkey the browser created for the challenge of this session, once its attestation
 * checks out (origin, relying party, challenge taken). The person's first factor comes with ten
 * recovery codes, as an authenticator app's does.
 */
export async function confirmPasskeySetup(
  ctx: AdminContext,
  actor: Actor,
  input: { readonly credential: string; readonly label: string },
): Promise<ConfirmedTotp> {
  const user = await ownUser(ctx, actor);
  const response = readRegistrationJson(input.credential);
  if (!response) throw badRequest('credential: your browser sent no passkey; try again');
  const deps = passkeyDeps(ctx);
  const { verifyRegistrationResponse } = await webauthnLibrary();
  const checked = await verifyRegistrationResponse({
    response,
    expectedChallenge: takesChallenge(deps, 'register', sessionOf(actor), user.id),
    expectedOrigin: deps.rp.origin,
    expectedRPID: deps.rp.id,
    requireUserVerification: false,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) throw error;
    // Why goes to the log (which check failed), never to the page.
    ctx.log.warn(
      { userId: user.id, reason: error instanceof Error ? error.message : String(error) },
      'admin: passkey refused',
    );
    return null;
  });
  if (!checked?.verified)
    throw badRequest('credential: that passkey could not be checked, or the page expired; try again');
  const { credential } = checked.registrationInfo;
  const label = input.label.trim().slice(0, FACTOR_LABEL_MAX_LENGTH) || 'Passkey';
  const { codes, hashes } = await codesIfFirstFactor(ctx, user.id);
  await ctx.store.addPasskey(
    user.id,
    {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: credential.transports ?? [],
      label,
    },
    hashes,
  );
  ctx.log.info({ actor, userId: user.id }, 'admin: passkey added');
  await recordFactorChange(ctx, actor, user.id, 'two_factor.add');
  return { recoveryCodes: codes };
}
