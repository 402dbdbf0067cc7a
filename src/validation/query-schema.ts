import { failure, type Result, success } from '#common';
import { z } from 'zod';

/**
 * The query parameters of the validation endpoints, validated with zod. A schema is an object
 * whose keys are parameter names, each read as the list of its values (so a repeat can be
 * refused); `parseQuery` gives the parsed values, or the public 1000 message of the first
 * invalid parameter in the schema's order (the order the reference documents them in).
 */
export type QuerySchema = z.ZodObject<Record<string, z.ZodType<unknown, string[]>>>;

export function parseQuery<S extends QuerySchema>(schema: S, query: URLSearchParams): Result<z.output<S>> {
  const values = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, query.getAll(name)]));
  const parsed = schema.safeParse(values);
  return parsed.success ? success(parsed.data) : failure(parsed.error.issues[0]?.message ?? 'Invalid parameters');
}

/** Given at most once, at most `maxLength` characters; absent is `undefined`. */
export function once(label: string, maxLength: number) {
  return z
    .array(z.string())
    .max(1, { error: `${label} must be given once` })
    .transform((values) => values[0])
    .pipe(
      z
        .string()
        .max(maxLength, { error: `${label} is too long` })
        .optional(),
    );
}

/** The first value, as forms that repeat a parameter send it; absent is `undefined`. */
export const first = z.array(z.string()).transform((values): string | undefined => values[0]);

/**
 * `format`, accepted on every validation endpoint with one rule: only JSON exists, in any case,
 * and an empty value is the default, as forms and SDKs that always send the parameter do.
 */
export const formatValue = z
  .string()
  .refine((value) => value === '' || value.toLowerCase() === 'json', { error: 'Format must be json' })
  .optional();

/** `format` read from every value of the parameter: the first counts. */
export const format = first.pipe(formatValue);
