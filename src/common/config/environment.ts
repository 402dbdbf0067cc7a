import { z } from 'zod';
import { failure, type Result, success } from '../result.ts';
import { deepFreeze } from './deep-freeze.ts';
import { type Env, unsetIfBlank } from './setting.ts';

export type { Env } from './setting.ts';

/** What the reference page says of a variable (docs/configuration.md is generated from it). */
export interface VariableDoc {
  /** Who reads it: `upstream`, `gateway`, `CLI`. */
  readonly readBy: readonly string[];
  /** The default as the page shows it (`8080`, `` `PUBLIC_URL` ``, `unset: embedded store`). */
  readonly defaultText: string;
  readonly description: string;
}

/** An environment variable of a schema of variables; `schema` sees the trimmed text, or undefined. */
export function variable<T extends z.ZodType>(schema: T, doc: VariableDoc) {
  return z.preprocess((value) => (typeof value === 'string' ? unsetIfBlank(value) : value), schema).meta({ ...doc });
}

const got = (input: unknown): string => `(got "${String(input)}")`;

/** A TCP port, 0 to 65535. */
export const portNumber = z
  .string()
  .refine((value) => /^\d+$/.test(value) && Number(value) <= 65_535, {
    error: (issue) => `must be a port number 0..65535 ${got(issue.input)}`,
  })
  .transform(Number);

/** Whole milliseconds from `min` to `max`. */
export function milliseconds(min: number, max: number) {
  return z
    .string()
    .refine((value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max, {
      error: (issue) => `must be a whole number of milliseconds ${min}..${max} ${got(issue.input)}`,
    })
    .transform(Number);
}

/** One of a closed list of words. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => `must be one of ${values.join(', ')} ${got(issue.input)}` });
}

/** An absolute http(s) URL, without its trailing slashes. */
export const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value), {
    error: (issue) => `must be an absolute URL ${got(issue.input)}`,
    abort: true,
  })
  .refine((value) => ['http:', 'https:'].includes(new URL(value).protocol), {
    error: (issue) => `must use http: or https: ${got(new URL(String(issue.input)).protocol)}`,
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** A secret of at least `minLength` characters; a problem never quotes it. */
export function secret(minLength: number) {
  return z.string().min(minLength, { error: `must be at least ${minLength} characters long` });
}

/**
 * Validates an environment against a schema of variables in one pass: every problem, each
 * `NAME: what is wrong`, in the schema's order; on success the result, deep-frozen.
 */
export function readEnvironment<T extends z.ZodType>(schema: T, env: Env): Result<z.output<T>, readonly string[]> {
  const result = schema.safeParse(env);
  if (result.success) return success(deepFreeze(result.data));
  return failure(result.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`));
}
