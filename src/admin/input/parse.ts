import type { z } from 'zod';
import { badRequest } from '../errors.ts';

/** The input as the schema returns it, or an `invalid_input` refusal with the first problem's message. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? 'invalid input');
}
