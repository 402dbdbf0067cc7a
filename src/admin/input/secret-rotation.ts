import { z } from 'zod';
import { DEFAULT_OVERLAP_MS, overlapSchema } from './duration.ts';

/**
 * A secret rotation (a client's or an API key's): `overlap` is how long the previous secret keeps
 * working (`"24h"` when absent, at most `"30d"`, `"0"` for not at all).
 */
export const rotateSecretInput = z
  .object({ overlap: overlapSchema.optional() }, { error: 'body must be a JSON object' })
  .transform((input) => ({ overlapMs: input.overlap ?? DEFAULT_OVERLAP_MS }))
  .brand<'RotateSecretInput'>();
export type RotateSecretInput = z.output<typeof rotateSecretInput>;
