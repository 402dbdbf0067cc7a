import { z } from 'zod';

/**
 * A route's `claims:` (required claim values, beyond scopes), its `claimHeaders:` (claims copied to
 * upstream headers) and the top-level `claimTypes:` they are checked against at load
 * (claim-types.ts). Claims are named as the token carries them, top-level members only: a name
 * may hold dots (`https://example.com/roles`), so no path syntax is read into it.
 */

const claimName = z.string().min(1, 'a claim name must not be empty').max(256);
const scalar = z.union([z.string().max(1024), z.number().finite(), z.boolean()]);

export const claimRuleSchema = z.union([
  scalar.describe('Shorthand for `{equals: value}`.'),
  z.strictObject({ equals: scalar.describe('The claim is exactly this string, number or boolean.') }),
  z.strictObject({
    oneOf: z.array(scalar).min(1).max(64).describe('The claim is one of these values (same type, exact match).'),
  }),
  z.strictObject({
    contains: scalar.describe('The claim is a list (JSON array) holding this value, e.g. `roles: {contains: admin}`.'),
  }),
]);
export type ClaimRule = z.output<typeof claimRuleSchema>;

export const claimRulesSchema = z
  .record(claimName, claimRuleSchema)
  .refine((rules) => Object.keys(rules).length <= 32, 'at most 32 claim rules on a route')
  .optional()
  .describe(
    'Claim values the token needs on this route, beyond `scopes`, all of them: `tenant: acme` (equals), ' +
      '`region: {oneOf: [eu, us]}`, `roles: {contains: admin}` (a list claim). A token without them is refused ' +
      'with 403 `1029`. Checked at load against `claimTypes`: `contains` on a claim declared scalar, `equals` or ' +
      '`oneOf` on one declared a list, a value of another type, and rules on claims the verifier owns (`iss`, ' +
      '`aud`, `exp`, `iat`, `nbf`, `jti`, `cnf`, `scope`, `client_gen`) are refused. Only with `auth: bearer` and ' +
      'without `allowKeySecret` (a key/secret call carries no claims).',
  );

/** RFC 9110 §5.1 field name (a token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers a claim may not be copied to: what this hop frames, routes or sets itself (hop-by-hop,
 * framing, forwarding, the request id and identity), and the credentials the upstream re-checks.
 */
export const UNCOPYABLE_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'dpop',
  'expect',
  'forwarded',
  'host',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-forwarded-proto',
  'x-real-ip',
  'x-request-id',
  'x-tokengate-identity',
]);

/** The problem with a header name, if any (a record key's own schema would only say "Invalid key in record"). */
function headerNameProblem(name: string): string | undefined {
  if (!FIELD_NAME.test(name) || name.length > 128)
    return "must be an HTTP header name (at most 128 letters, digits and !#$%&'*+.^_`|~-)";
  if (UNCOPYABLE_HEADERS.has(name.toLowerCase()))
    return `${name} is set or checked by the gateway itself; choose another header`;
  return undefined;
}

export const claimHeadersSchema = z
  .record(z.string(), claimName)
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      const message = headerNameProblem(name);
      if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: [name] });
    }
  })
  .refine((headers) => Object.keys(headers).length <= 16, 'at most 16 claim headers on a route')
  .refine(
    (headers) => new Set(Object.keys(headers).map((h) => h.toLowerCase())).size === Object.keys(headers).length,
    'a header is named twice (header names are case-insensitive)',
  )
  .optional()
  .describe(
    'Claims copied to headers of the upstream request, header name → claim name, e.g. `{X-Tenant: tenant}`. ' +
      'Inbound copies of every header any route names here are dropped on every route, as `x-tokengate-*` ' +
      'are. Values are percent-encoded so no claim can add a header or a second value (see ' +
      '[claim headers](#claim-rules-and-claim-headers)); a claim the token lacks sends no header. Only with `auth: bearer`.',
  );

export const CLAIM_TYPES = ['string', 'number', 'boolean', 'list'] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export const claimTypesSchema = z
  .record(claimName, z.enum(CLAIM_TYPES))
  .optional()
  .describe(
    'The type of the claims route rules name, when the rules alone do not say it: `string`, `number`, ' +
      '`boolean` or `list` (a JSON array). `sub`, `client_id` and `project_id` are strings. A claim not ' +
      'declared here takes the type of its first rule, and every other rule on it must agree.',
  );
