import type { ApiKey } from '#store';
import { z } from 'zod';
import type { RotatedApiKeySecret } from '../api-key-secrets.ts';
import type { ClientDetail, RotatedClientSecret } from '../client-secrets.ts';
import { clientView, toClientView, type View } from './views.ts';

/*
 * The views of secret rotation (see views.ts for what a view is). `previous_valid_until` is when
 * the previous secret stops (ISO 8601, UTC), or null when none works any more.
 */

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const until = z.string().nullable();

/** `client show`: the client (never a secret) and whether an old secret still works, until when. */
export const clientDetailView = clientView.extend({ previous_valid_until: until });
export const toClientDetailView = (d: ClientDetail): View<typeof clientDetailView> => ({
  ...toClientView(d.client),
  previous_valid_until: iso(d.previousValidUntil),
});

/** The new secret is shown here once (only its hash is stored). */
export const rotatedClientSecretView = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  previous_valid_until: until,
});
export const toRotatedClientSecretView = (r: RotatedClientSecret): View<typeof rotatedClientSecretView> => ({
  client_id: r.client.clientId,
  client_secret: r.clientSecret,
  previous_valid_until: iso(r.previousValidUntil),
});

export const retiredClientSecretView = z.object({ client_id: z.string(), previous_valid_until: z.null() });

export const rotatedApiKeySecretView = z.object({ key: z.string(), secret: z.string(), previous_valid_until: until });
export const toRotatedApiKeySecretView = (r: RotatedApiKeySecret): View<typeof rotatedApiKeySecretView> => ({
  key: r.apiKey.key,
  secret: r.secret,
  previous_valid_until: iso(r.previousValidUntil),
});

export const retiredApiKeySecretView = z.object({ key: z.string(), previous_valid_until: z.null() });
export const toRetiredApiKeySecretView = (k: ApiKey): View<typeof retiredApiKeySecretView> => ({
  key: k.key,
  previous_valid_until: null,
});
