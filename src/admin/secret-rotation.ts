import { generateSecret, hashSecret, systemClock } from '#common';
import type { PreviousSecret } from '#store';
import type { AdminContext } from './context.ts';
import type { RotateSecretInput } from './input/secret-rotation.ts';

/** A new secret, shown once (only its hash is stored), and until when the previous one works. */
export interface NewSecret {
  readonly secret: string;
  readonly hash: string;
  /** Epoch ms; null when the previous secret stopped at once (an overlap of 0). */
  readonly previousValidUntil: number | null;
}

/** The secret to rotate to: 256 random bits like every client and API-key secret. */
export function newSecret(ctx: AdminContext, input: RotateSecretInput): NewSecret {
  const secret = generateSecret();
  const now = (ctx.clock ?? systemClock).now();
  return {
    secret,
    hash: hashSecret(secret),
    previousValidUntil: input.overlapMs === 0 ? null : now + input.overlapMs,
  };
}

/**
 * Until when a previous secret still works (epoch ms), or null when there is none or its overlap
 * has ended: what `client show`, the rotation's answer and the portal say.
 */
export function stillValidUntil(ctx: AdminContext, previous: PreviousSecret | null): number | null {
  if (previous === null) return null;
  return (ctx.clock ?? systemClock).now() < previous.validUntil ? previous.validUntil : null;
}
