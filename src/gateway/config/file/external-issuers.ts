import { KEY_SET_DEFAULTS, SUPPORTED_ALGORITHMS, VERIFIER_DEFAULTS } from '#auth';
import { SCOPES } from '#common';
import { z } from 'zod';
import { duration } from '../duration.ts';
import { introspectionSchema } from './introspection.ts';
import { keySetSchema } from './issuer.ts';
import { documented, requestUrl, url } from './values.ts';

/** `externalIssuers[]` of `gateway.yaml`: other authorization servers whose tokens routes may accept. */

/** The name routes use for tokengate's own issuer (the `issuer` section). */
export const OWN_ISSUER = 'tokengate';

export const issuerName = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1 to 32 lower-case letters, digits or "-", starting with a letter');

const claimName = z.string().min(1).max(64);

const scopeClaimSchema = z
  .strictObject({
    claim: claimName.default('scope').describe('The claim holding the granted scopes.'),
    format: z
      .enum(['string', 'list'])
      .default('string')
      .describe(
        '`string`: one string of names split by `separator` (RFC 9068 `scope`). `list`: a JSON array of ' +
          'names (`scp`, `roles`).',
      ),
    separator: z
      .string()
      .min(1)
      .max(4)
      .default(' ')
      .meta(documented('What separates the names of a `string` claim.', 'one space')),
    map: z
      .record(z.string().min(1).max(256), z.enum(SCOPES))
      .optional()
      .describe(
        'The issuer\'s scope names → tokengate\'s scopes (`{ "api://validation/address": address }`). Unset: a ' +
          "name counts only when it is one of tokengate's scopes. Names neither maps nor knows grant nothing.",
      ),
  })
  .prefault({})
  .describe('Where the scopes routes check are read.');

const claimsSchema = z
  .strictObject({
    scope: scopeClaimSchema,
    client: claimName
      .default('client_id')
      .describe('The claim naming the calling client (identity header, access log, rate limits).'),
    project: claimName
      .optional()
      .describe(
        "The claim naming the caller's project. Unset: every token of this issuer belongs to one project " +
          'named after the issuer (`name`).',
      ),
  })
  .prefault({})
  .describe("How the issuer's claims map to tokengate's scopes and identity.");

export const externalIssuerSchema = z
  .strictObject({
    name: issuerName
      .refine((n) => n !== OWN_ISSUER, `"${OWN_ISSUER}" names the gateway's own issuer (the issuer section)`)
      .describe('What routes call this issuer in `routes[].issuers`.'),
    issuer: url.describe('Its issuer identifier: the exact `iss` its tokens carry.'),
    jwksUrl: requestUrl.optional().describe('Its key set (JWKS). Give this or `discoveryUrl`, not both.'),
    discoveryUrl: requestUrl
      .optional()
      .describe(
        'Its OpenID Connect or RFC 8414 metadata (`…/.well-known/openid-configuration` or ' +
          '`…/.well-known/oauth-authorization-server`): `jwks_uri` is read ' +
          'from it, and its `issuer` must be `issuer`.',
      ),
    audience: z.string().min(1).describe('The `aud` its tokens must carry for this gateway.'),
    algorithms: z
      .array(z.enum(SUPPORTED_ALGORITHMS))
      .min(1)
      .default([...KEY_SET_DEFAULTS.algorithms])
      .describe('Signature algorithms accepted from it: pinned here, never taken from the token.'),
    clockToleranceSec: duration('s', 0, 300, VERIFIER_DEFAULTS.clockToleranceSec).describe(
      'Leeway, in seconds, on `exp`, `iat` and `nbf`.',
    ),
    maxTokenLifetimeSec: duration('s', 1, 604_800, 86_400).describe(
      'Longest `exp - iat` accepted, in seconds; a token claiming a longer life is refused.',
    ),
    tokenTypes: z
      .array(z.string().min(1).max(64))
      .min(1)
      .default(['at+jwt'])
      .describe(
        'Header `typ` values accepted, compared without case and without an `application/` prefix: RFC 9068 ' +
          'access tokens are `at+jwt`; add `JWT` for issuers that type them so.',
      ),
    claims: claimsSchema,
    introspection: introspectionSchema,
    keySet: keySetSchema("Past it this issuer's tokens get 503 `1052`; `/readyz` never waits for an external issuer."),
  })
  .refine((i) => i.jwksUrl !== undefined || i.discoveryUrl !== undefined, {
    message: 'needs jwksUrl or discoveryUrl',
    path: ['jwksUrl'],
  })
  .refine((i) => i.introspection === undefined || i.introspection.url !== undefined || i.discoveryUrl !== undefined, {
    message: 'needs introspection.url, or a discoveryUrl that advertises the endpoint',
    path: ['introspection', 'url'],
  })
  .refine((i) => i.jwksUrl === undefined || i.discoveryUrl === undefined, {
    message: 'give jwksUrl or discoveryUrl, not both',
    path: ['discoveryUrl'],
  });

export type ExternalIssuerConfig = z.output<typeof externalIssuerSchema>;

export const externalIssuersSchema = z
  .array(externalIssuerSchema)
  .default([])
  .meta({ title: 'issuers' })
  .superRefine((issuers, ctx) => {
    const names = new Set<string>();
    const identifiers = new Set<string>();
    issuers.forEach((issuer, index) => {
      if (names.has(issuer.name))
        ctx.addIssue({ code: 'custom', message: `name "${issuer.name}" is declared twice`, path: [index, 'name'] });
      if (identifiers.has(issuer.issuer))
        ctx.addIssue({
          code: 'custom',
          message: 'two issuers with one `iss`: a token could not say whose keys check it',
          path: [index, 'issuer'],
        });
      names.add(issuer.name);
      identifiers.add(issuer.issuer);
    });
  })
  .describe(
    "Other authorization servers whose tokens routes may accept (`routes[].issuers`): JWTs verified here, opaque tokens introspected. A token's unverified " +
      "`iss` picks the issuer; its keys, audience, algorithms and claims are that issuer's alone, and an `iss` " +
      'the route does not accept is refused (401 `1024`) before any key is looked up. Their tokens are not ' +
      "in tokengate's revocation list: they are revoked as their issuer offers.",
  );
