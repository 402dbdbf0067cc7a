import { SCOPES } from '#common';
import { z } from 'zod';
import { groupName } from '../../ratelimit/schema.ts';
import { claimHeadersSchema, claimRulesSchema } from './claims.ts';
import { issuerName, OWN_ISSUER } from './external-issuers.ts';
import { documented } from './values.ts';

/** `routes[]` of `gateway.yaml`: one path of the route map and what it needs. */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** The gateway answers these itself; a route may not shadow them. */
const RESERVED = ['/healthz', '/readyz'];

const scope = z.enum(SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` });
const routePath = z
  .string()
  .regex(/^\/[A-Za-z0-9\-._~/:*]*$/, 'must be an absolute path: /exact, /prefix/* or /x/:param')
  .refine((p) => !p.startsWith('/internal'), "the upstream's /internal/* routes must never be exposed")
  .refine((p) => !RESERVED.includes(p), "reserved for the gateway's own health endpoints");

export const routeSchema = z
  .strictObject({
    path: routePath.describe(
      '`/exact`, `/prefix/*` or `/x/:param` (find-my-way syntax); each also matches with a trailing slash ' +
        '(`/exact/`). Refused: any path starting with `/internal`, `/healthz` and `/readyz` (the gateway answers ' +
        'these), a method declared twice on one path, and paths that differ only in parameter names (`/x/:id`, ' +
        '`/x/:itemId`).',
    ),
    methods: z
      .array(z.enum(METHODS))
      .min(1)
      .default(['GET'])
      .describe('Methods served on the path. Other methods get 405 `1042` with `Allow` naming these.'),
    auth: z
      .enum(['bearer', 'none'])
      .describe("`bearer`: a verified token is needed. `none`: forwarded without one (the issuer's own endpoints)."),
    scopes: z
      .array(scope)
      .default([])
      .describe('Scopes the token needs; `[]` accepts any valid token. Only with `auth: bearer`.'),
    match: z
      .enum(['any', 'all'])
      .default('any')
      .describe('`any`: one of `scopes` is enough. `all`: every one is needed.'),
    allowKeySecret: z
      .boolean()
      .default(false)
      .describe(
        'Requests with a `key` parameter and no bearer token pass to the upstream untouched: the upstream checks ' +
          'the key and secret.',
      ),
    errorFields: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "Extra fields of this route's error bodies, e.g. `completions: []` on the validation API routes. They " +
          'never replace `message`, `error_code` or `success`.',
      ),
    issuers: z
      .array(issuerName)
      .min(1)
      .optional()
      .meta(
        documented(
          `Whose tokens the route accepts: \`${OWN_ISSUER}\` (the \`issuer\` section) and names of ` +
            '`externalIssuers`. A token whose `iss` is none of them is refused with 401 `1024`. Only with ' +
            '`auth: bearer`.',
          `\`[${OWN_ISSUER}]\``,
        ),
      ),
    rateLimitGroup: groupName
      .optional()
      .describe(
        "The route's group in `rateLimits`: its calls count against the group's limits and the monthly quota. " +
          'Unset: the route is neither limited nor counted.',
      ),
    errorShape: z
      .enum(['api', 'oauth'])
      .default('api')
      .describe(
        "The body of the gateway's own errors on this route: the documented `{message, error_code, success}` " +
          '(`api`) or RFC 6749 §5.2 `{error, error_description}` (`oauth`, only with `auth: none` and no ' +
          '`errorFields`).',
      ),
    claims: claimRulesSchema,
    claimHeaders: claimHeadersSchema,
  })
  .refine((r) => r.auth === 'bearer' || r.scopes.length === 0, {
    message: 'scopes need auth: bearer',
    path: ['scopes'],
  })
  .refine((r) => r.auth === 'bearer' || r.issuers === undefined, {
    message: 'issuers need auth: bearer',
    path: ['issuers'],
  })
  .refine((r) => r.auth === 'bearer' || (r.claims === undefined && r.claimHeaders === undefined), {
    message: 'claims and claimHeaders need auth: bearer',
    path: ['auth'],
  })
  // A key/secret call carries no claims: the rules would not hold on it.
  .refine((r) => !r.allowKeySecret || r.claims === undefined, {
    message: 'claims rules need a token: not with allowKeySecret',
    path: ['claims'],
  })
  // A token's refusals have their documented body and RFC 6750 challenge; an OAuth body has no extra fields.
  .refine((r) => r.errorShape === 'api' || r.auth === 'none', {
    message: 'errorShape: oauth needs auth: none (the OAuth endpoints authenticate their clients themselves)',
    path: ['errorShape'],
  })
  .refine((r) => r.errorShape === 'api' || Object.keys(r.errorFields).length === 0, {
    message: 'errorFields extend the documented error body, not errorShape: oauth',
    path: ['errorFields'],
  });

/** A route as configured; the environment changes nothing in it. */
export type RouteConfig = z.output<typeof routeSchema>;
