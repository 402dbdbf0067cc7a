import { badRequest, conflict } from '../errors.ts';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { newRecoveryCodes, readCode, recoveryCodeHash } from './second-factor-codes.ts';
import { now, ownUser, recordFactorChange } from './second-factor-person.ts';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

/** A person keeps at most this many factors (bounds the work of a sign-in). */
export const MAX_FACTORS = 10;
/** A setup not finished within this time starts again with a new secret. */
export const PENDING_TOTP_TTL_MS = 30 * 60 * 1000;
export const FACTOR_LABEL_MAX_LENGTH = 100;

/** The secret of a TOTP factor being set up, shown (as text and as a QR code of the URI) until confirmed. */
export interface TotpSetup {
  readonly secret: string;
  readonly uri: string;
}

/** The person's TOTP factor being set up: the one started within 30 minutes, or a new one. */
export async function startTotpSetup(ctx: AdminContext, actor: Actor): Promise<TotpSetup> {
  const user = await ownUser(ctx, actor);
  if ((await ctx.store.listFactors(user.id)).length >= MAX_FACTORS)
    throw conflict(`you have ${MAX_FACTORS} second factors already: remove one first`);
  const pending = await ctx.store.getPendingTotp(user.id, now(ctx) - PENDING_TOTP_TTL_MS);
  const secret = pending?.secret ?? newTotpSecret();
  if (!pending) await ctx.store.addPendingTotp(user.id, secret);
  return { secret, uri: otpauthUri(secret, user.email) };
}

/** A person's first factor, of either kind, comes with ten recovery codes: shown once, stored as digests. */
export async function codesIfFirstFactor(ctx: AdminContext, userId: string) {
  if ((await ctx.store.listFactors(userId)).length > 0) return { codes: null, hashes: undefined };
  const codes = newRecoveryCodes();
  return { codes, hashes: codes.map((code) => recoveryCodeHash(userId, code.replaceAll('-', ''))) };
}

/** The recovery codes are in this answer only (the store keeps digests); null when the person had some already. */
export interface ConfirmedTotp {
  readonly recoveryCodes: readonly string[] | null;
}

/**
 * Confirms the factor being set up with a code from it (the app and the server agree). The
 * person's first factor comes with ten recovery codes. Its code's step is not accepted again.
 */
export async function confirmTotpSetup(
  ctx: AdminContext,
  actor: Actor,
  input: { readonly code: string; readonly label: string },
): Promise<ConfirmedTotp> {
  const user = await ownUser(ctx, actor);
  const pending = await ctx.store.getPendingTotp(user.id, now(ctx) - PENDING_TOTP_TTL_MS);
  if (!pending) throw conflict('this setup expired: scan the new code and try again');
  const typed = readCode(input.code);
  if (typed.kind !== 'totp') throw badRequest('code: enter the 6-digit code your authenticator app shows');
  const step = matchTotp(pending.secret, typed.code, now(ctx), null);
  if (step === null)
    throw badRequest('code: that code does not match; check the time on your device and type the current code');
  const label = input.label.trim().slice(0, FACTOR_LABEL_MAX_LENGTH) || 'Authenticator app';
  const { codes, hashes } = await codesIfFirstFactor(ctx, user.id);
  if (!(await ctx.store.confirmTotp(user.id, pending.id, label, step, hashes)))
    throw conflict('this setup was replaced by a newer one: start again');
  ctx.log.info({ actor, userId: user.id }, 'admin: second factor added');
  await recordFactorChange(ctx, actor, user.id, 'two_factor.add');
  return { recoveryCodes: codes };
}
