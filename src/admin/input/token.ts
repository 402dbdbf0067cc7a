import { z } from 'zod';

const REQUIRED = 'token: required, a JWT or a jti';

/** A compact JWT or a bare jti, trimmed (the issuer checks which, and that it is ours). */
export const tokenSchema = z
  .string({ error: REQUIRED })
  .refine((token) => token.trim() !== '', REQUIRED)
  // UTF-16 units before trimming, as always (zod's .max() would count code points).
  .refine((token) => token.length <= 8192, 'token: at most 8192 characters')
  .trim();
