import { z } from 'zod';
import { formatValue } from '../../query-schema.ts';
import { isStateCode, type StateCode } from '../data/vocabulary.ts';

/** A request parameter broke a rule; the message names it (error 1000). */
export class ParamError extends Error {}

export const MAX_QUERY_LENGTH = 200;
export const MAX_RESULTS = 100;
export const DEFAULT_RESULTS = 10;

/**
 * Each parameter of the address endpoints is a zod schema over its first value (`null` when
 * absent, as `URLSearchParams.get` gives it); `read` runs one and turns its first issue into the
 * ParamError the route answers with 1000. The routes read them in the order the reference lists.
 */
function read<T>(schema: z.ZodType<T, string | null>, value: string | null): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ParamError(parsed.error.issues[0]?.message ?? 'Invalid parameter');
}

/** "post_box" → "Post box", the way the public API names parameters in messages. */
function label(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Absent, or empty once trimmed when `trim`: the parameter's default applies. */
const unset = (value: string | null, trim = false): boolean => value === null || (trim ? value.trim() : value) === '';

/**
 * Each parameter's schema is built once and kept: building a zod schema costs far more than
 * running one, and these ran on every request (a CPU profile of the whole stack under load).
 */
const built = new Map<string, z.ZodType<unknown, string | null>>();
function schemaOf<T>(key: string, build: () => z.ZodType<T, string | null>): z.ZodType<T, string | null> {
  let schema = built.get(key) as z.ZodType<T, string | null> | undefined;
  if (schema === undefined) {
    schema = build();
    built.set(key, schema);
  }
  return schema;
}

const text = (name: string) =>
  z
    .string()
    .nullable()
    .transform((value) => value?.trim() ?? '')
    .pipe(
      z
        .string()
        .min(1, { error: `${label(name)} can not be blank` })
        .max(MAX_QUERY_LENGTH, { error: `${label(name)} is too long (maximum is ${MAX_QUERY_LENGTH} characters)` }),
    );

export function requiredText(query: URLSearchParams, name: string): string {
  return read(
    schemaOf(`text:${name}`, () => text(name)),
    query.get(name),
  );
}

const flagSchema = (name: string, fallback: boolean) =>
  z
    .string()
    .nullable()
    .transform((value) => (unset(value) ? String(fallback) : (value as string)))
    .pipe(z.enum(['1', 'true', '0', 'false'], { error: `${label(name)} must be 0 or 1` }))
    .transform((value) => value === '1' || value === 'true');

/** `0`/`1` (also `false`/`true`); absent → the default. */
export function flag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  return read(
    schemaOf(`flag:${name}:${fallback}`, () => flagSchema(name, fallback)),
    query.get(name),
  );
}

/**
 * `census`: a census year (an integer, e.g. 2016) asks for the Meshblock, SA1 and SA2 ids;
 * omitted or empty → whether the endpoint returns them by default. Anything else is 1000.
 */
export function censusYear(query: URLSearchParams, byDefault: boolean): boolean {
  const schema = schemaOf(`census:${byDefault}`, () =>
    z
      .string()
      .nullable()
      .transform((value) => value?.trim() ?? '')
      .pipe(z.string().regex(/^(\d{4})?$/, { error: 'Census must be a census year, e.g. 2016' }))
      .transform((value) => (value === '' ? byDefault : true)),
  );
  return read(schema, query.get('census'));
}

/** `post_box`: omitted = both kinds, 0 = no boxes, 1 = boxes only. */
export function postBox(query: URLSearchParams): 'include' | 'exclude' | 'only' {
  if (unset(query.get('post_box'))) return 'include';
  return flag(query, 'post_box', false) ? 'only' : 'exclude';
}

const MAX_ERROR = `Max must be an integer from 1 to ${MAX_RESULTS}`;
const maxSchema = z
  .string()
  .nullable()
  .transform((value) => (unset(value) ? String(DEFAULT_RESULTS) : (value as string)))
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}$/, { error: MAX_ERROR, abort: true })
      .transform(Number)
      .pipe(z.int().min(1, { error: MAX_ERROR }).max(MAX_RESULTS, { error: MAX_ERROR })),
  );

export function maxResults(query: URLSearchParams): number {
  return read(maxSchema, query.get('max'));
}

/** At most 16 codes are read; an unknown one is named (cut to 10 characters). */
const stateCodesSchema = z
  .string()
  .nullable()
  .transform((value) =>
    unset(value, true)
      ? null
      : (value as string)
          .split(',')
          .slice(0, 16)
          .map((raw) => raw.trim().toUpperCase()),
  )
  .pipe(
    z
      .array(
        z.string().refine(isStateCode, {
          error: (issue) => `State codes contains an unknown state: ${String(issue.input).slice(0, 10)}`,
        }),
      )
      .nullable(),
  )
  .transform((codes) => (codes === null ? null : new Set(codes as StateCode[])));

export function stateCodes(query: URLSearchParams): ReadonlySet<StateCode> | null {
  return read(stateCodesSchema, query.get('state_codes'));
}

const formatSchema = z
  .string()
  .nullable()
  .transform((value) => value ?? undefined)
  .pipe(formatValue);

export function format(query: URLSearchParams): void {
  read(formatSchema, query.get('format'));
}

/** `source`: GNAF (physical), PAF (postal, with boxes), or both (default). */
const sourceSchema = z
  .string()
  .nullable()
  .transform((value) =>
    unset(value, true)
      ? ['GNAF', 'PAF']
      : (value as string)
          .toUpperCase()
          .split(',')
          .map((part) => part.trim()),
  )
  .pipe(z.array(z.enum(['GNAF', 'PAF'], { error: 'Source must be GNAF, PAF or GNAF,PAF' })))
  .transform((parts) => ({ physical: parts.includes('GNAF'), postal: parts.includes('PAF') }));

export function source(query: URLSearchParams): { physical: boolean; postal: boolean } {
  return read(sourceSchema, query.get('source'));
}

export const ID_PARAMS = ['id', 'gnaf_id', 'dpid'] as const;

/** `id`, `gnaf_id` or `dpid`: exactly one given (blank counts as not given), trimmed, bounded. */
const recordIdSchema = z
  .array(z.tuple([z.enum(ID_PARAMS), z.string()]))
  .transform((pairs) => pairs.map(([name, value]) => [name, value.trim()] as const).filter(([, value]) => value !== ''))
  .pipe(
    z
      .array(z.tuple([z.enum(ID_PARAMS), z.string()]))
      .length(1, { error: 'Exactly one of id, gnaf_id or dpid must be supplied' }),
  )
  .transform((pairs) => {
    const [name, value] = pairs[0] as [(typeof ID_PARAMS)[number], string];
    return { name, value };
  })
  .refine((id) => id.value.length <= MAX_QUERY_LENGTH, {
    error: (issue) =>
      `${(issue.input as { name: string }).name} is too long (maximum is ${MAX_QUERY_LENGTH} characters)`,
  });

export function recordId(query: URLSearchParams): { name: (typeof ID_PARAMS)[number]; value: string } {
  const given = ID_PARAMS.map((name) => [name, query.get(name) ?? ''] as const);
  const parsed = recordIdSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  throw new ParamError(parsed.error.issues[0]?.message ?? 'Invalid parameter');
}
