import type { ServerResponse } from 'node:http';
import { channel, tracingChannel } from 'node:diagnostics_channel';

/**
 * What the issuer, the store and the address search report for metrics and traces, through
 * node:diagnostics_channel: publishing costs a check of `hasSubscribers` (and `tracePromise` runs
 * the function as it is) until the upstream subscribes (its metrics, or tracing when enabled).
 * Channels are process-wide: one upstream per process, as `tokengate upstream` and `start` run.
 */

/** One store statement: `sql` is the parameterised text (never the parameters). */
export interface StoreQueryContext {
  readonly sql: string;
}
export const storeQueryChannel = tracingChannel<StoreQueryContext, StoreQueryContext>('tokengate:store:query');

/** One search of the address data set (autocomplete, verification). */
export const addressSearchChannel = tracingChannel<object, object>('tokengate:address:search');

/** A token or revocation request refused with an RFC 6749 error code (published with the response it went to). */
export interface OAuthErrorMessage {
  readonly res: ServerResponse;
  readonly code: string;
}
export const oauthErrorChannel = channel('tokengate:oauth:error');

/** A revocation written: one token (`token`) or every token of a client (`client`). */
export interface RevocationMessage {
  readonly kind: 'token' | 'client';
}
export const revocationChannel = channel('tokengate:revocation');
