import { z } from 'zod';
import { rateLimitsSchema } from '../ratelimit/schema.ts';
import { routeConflicts } from '../routing/conflicts.ts';
import { claimRuleProblems } from './claim-types.ts';
import { claimTypesSchema } from './file/claims.ts';
import { externalIssuersSchema, OWN_ISSUER } from './file/external-issuers.ts';
import { forwardAuthSchema } from './file/forward-auth.ts';
import { issuerSchema } from './file/issuer.ts';
import { routeSchema } from './file/routes.ts';
import {
  drainTimeoutSchema,
  limitsSchema,
  listenSchema,
  metricsSchema,
  tlsSchema,
  workersSchema,
} from './file/serving.ts';
import { upstreamSchema } from './file/upstream.ts';
import { cachesSchema, dpopSchema, revocationSchema } from './file/verification.ts';

/**
 * What `gateway.yaml` may say: a pure, static schema, the same whatever the environment. Every
 * object is strict (an unknown key is an error, so a typo never silently falls back to a default).
 * A key the environment or another key can stand in for is optional here, and documented with a
 * `defaultText` saying where its value then comes from; resolve.ts fills it in. Every key carries
 * its documentation: docs/configuration.md is generated from this schema by `npm run
 * docs:config`, and a test fails when that page is stale.
 */
export const gatewayFileSchema = z
  .strictObject({
    listen: listenSchema,
    tls: tlsSchema,
    upstream: upstreamSchema,
    issuer: issuerSchema,
    externalIssuers: externalIssuersSchema,
    caches: cachesSchema,
    revocation: revocationSchema,
    dpop: dpopSchema,
    limits: limitsSchema,
    metrics: metricsSchema,
    workers: workersSchema,
    drainTimeoutMs: drainTimeoutSchema,
    forwardAuth: forwardAuthSchema,
    rateLimits: rateLimitsSchema
      .optional()
      .describe(
        'Rate limits per client and per project on route groups, and monthly quotas per project, by plan. ' +
          'Absent: nothing is limited or counted.',
      ),
    routes: z
      .array(routeSchema)
      .min(1)
      .superRefine((routes, ctx) => {
        for (const { index, message } of routeConflicts(routes))
          ctx.addIssue({ code: 'custom', message, path: [index, 'path'] });
      })
      .describe(
        'The route map: the paths served, their methods, and what each needs. Paths no route matches get ' +
          '404 `1041`.',
      ),
    claimTypes: claimTypesSchema,
  })
  // A route may only name an issuer the file declares.
  .superRefine((file, ctx) => {
    const known = new Set([OWN_ISSUER, ...file.externalIssuers.map((i) => i.name)]);
    const introspecting = new Set(file.externalIssuers.filter((i) => i.introspection).map((i) => i.name));
    file.routes.forEach((route, index) => {
      // An opaque token names no issuer: a route can send it to one introspection endpoint only.
      const opaque = route.issuers?.filter((name) => introspecting.has(name)) ?? [];
      if (opaque.length > 1)
        ctx.addIssue({
          code: 'custom',
          message: `accepts two issuers that introspect opaque tokens (${opaque.join(', ')}): an opaque token could not say whose it is`,
          path: ['routes', index, 'issuers'],
        });
      route.issuers?.forEach((name, at) => {
        if (known.has(name)) return;
        ctx.addIssue({
          code: 'custom',
          message: `unknown issuer "${name}": declare it in externalIssuers (known: ${[...known].join(', ')})`,
          path: ['routes', index, 'issuers', at],
        });
      });
    });
  })
  // Claim rules that can never hold, or name a claim the verifier owns (claim-types.ts).
  .superRefine((file, ctx) => {
    for (const { path, message } of claimRuleProblems(file.routes, file.claimTypes ?? {}))
      ctx.addIssue({ code: 'custom', message, path: [...path] });
  });

/** A valid `gateway.yaml`, as written: the keys it leaves to the environment are still unset. */
export type GatewayFile = z.output<typeof gatewayFileSchema>;
