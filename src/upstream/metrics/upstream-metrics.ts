import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import {
  addressSearchChannel,
  type OAuthErrorMessage,
  oauthErrorChannel,
  type RevocationMessage,
  revocationChannel,
  type StoreQueryContext,
  storeQueryChannel,
} from '#common';
import { FEED_PATH } from '../server.ts';

const TOKEN_PATH = '/oauth/token';
const JWKS_PATH = '/.well-known/jwks.json';

/** Latency buckets, in seconds, for the upstream's HTTP work (token signing, validation). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Store statements and address searches are faster. */
const FAST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5];

const STARTED = Symbol('tokengate.upstream.started');
type Observed = ServerResponse & { [STARTED]?: number };

/** What the metrics read at scrape time. */
export interface UpstreamMetricsSource {
  /** The address data set served now, if the upstream hosts the address routes. */
  dataset?(): { readonly version: string; readonly source: string };
}

/** `SELECT`, `INSERT` … : the first word of a statement, a bounded label. */
function operationOf(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'OTHER';
}

/**
 * The upstream's Prometheus metrics: its own registry (prefix `tokengate_upstream_`), fed by the
 * public server (`observe`, once per request) and by the issuer's, store's and address search's
 * diagnostics channels, which it subscribes to until `close`.
 */
export function createUpstreamMetrics(validationPaths: readonly string[], source: UpstreamMetricsSource = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tokengate_upstream_' });
  const registers = [registry];
  const tokenRequests = new Counter({
    name: 'tokengate_upstream_token_requests_total',
    help: 'Token requests by outcome: issued, rate_limited, or the OAuth error code (invalid_client, invalid_scope, ...).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const tokenIssue = new Histogram({
    name: 'tokengate_upstream_token_issue_seconds',
    help: 'Time to answer a token request that issued a token (client authentication and signing included).',
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const revocations = new Counter({
    name: 'tokengate_upstream_revocations_total',
    help: 'Revocations written, by kind: token (one jti) or client (every token of a client).',
    labelNames: ['kind'] as const,
    registers,
  });
  const keySetRequests = new Counter({
    name: 'tokengate_upstream_keyset_requests_total',
    help: 'Requests for the key set (/.well-known/jwks.json), by HTTP status.',
    labelNames: ['status'] as const,
    registers,
  });
  const feedRequests = new Counter({
    name: 'tokengate_upstream_revocation_feed_requests_total',
    help: 'Revocation feed polls (/internal/revocations), by HTTP status.',
    labelNames: ['status'] as const,
    registers,
  });
  const storeQueries = new Histogram({
    name: 'tokengate_upstream_store_query_seconds',
    help: 'Store statements, by operation (SELECT, INSERT, ...), failed ones included.',
    labelNames: ['operation'] as const,
    buckets: FAST_BUCKETS,
    registers,
  });
  const storeErrors = new Counter({
    name: 'tokengate_upstream_store_query_errors_total',
    help: 'Store statements that failed, by operation.',
    labelNames: ['operation'] as const,
    registers,
  });
  const validationRequests = new Counter({
    name: 'tokengate_upstream_validation_requests_total',
    help: 'Validation API requests by endpoint path and HTTP status.',
    labelNames: ['endpoint', 'status'] as const,
    registers,
  });
  const validationSeconds = new Histogram({
    name: 'tokengate_upstream_validation_seconds',
    help: 'Time to answer a validation API request, by endpoint path (authentication included).',
    labelNames: ['endpoint'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const addressSearch = new Histogram({
    name: 'tokengate_upstream_address_search_seconds',
    help: 'Time of one search of the address data set (autocomplete, verification).',
    buckets: FAST_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'tokengate_upstream_address_dataset_info',
    help: 'The address data set served: 1, labelled with its version and source (sample or gnaf).',
    labelNames: ['version', 'source'] as const,
    registers,
    collect() {
      this.reset();
      const dataset = source.dataset?.();
      if (dataset) this.set({ version: dataset.version, source: dataset.source }, 1);
    },
  });

  /** The OAuth error each token response carried (published by the issuer with its response). */
  const oauthErrors = new WeakMap<ServerResponse, string>();
  const onOAuthError = (message: unknown) => {
    const { res, code } = message as OAuthErrorMessage;
    oauthErrors.set(res, code);
  };
  const onRevocation = (message: unknown) => revocations.inc({ kind: (message as RevocationMessage).kind });
  const started = new WeakMap<object, number>();
  const store = {
    start: (context: StoreQueryContext) => void started.set(context, performance.now()),
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: (context: StoreQueryContext) => {
      const at = started.get(context);
      if (at !== undefined)
        storeQueries.observe({ operation: operationOf(context.sql) }, (performance.now() - at) / 1000);
    },
    error: (context: StoreQueryContext) => storeErrors.inc({ operation: operationOf(context.sql) }),
  };
  const search = {
    start: (context: object) => void started.set(context, performance.now()),
    end: (context: object) => {
      const at = started.get(context);
      if (at !== undefined) addressSearch.observe((performance.now() - at) / 1000);
    },
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };
  oauthErrorChannel.subscribe(onOAuthError);
  revocationChannel.subscribe(onRevocation);
  storeQueryChannel.subscribe(store);
  addressSearchChannel.subscribe(search);

  const validation = new Set(validationPaths);

  /** Counts one finished response by what it answered; the start time rides on the response. */
  function onFinish(this: Observed): void {
    const seconds = (performance.now() - (this[STARTED] ?? 0)) / 1000;
    const url = this.req.url ?? '/';
    const query = url.indexOf('?');
    const raw = query === -1 ? url : url.slice(0, query);
    const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
    const status = this.statusCode;
    if (path === TOKEN_PATH) {
      const outcome =
        status === 200 ? 'issued' : status === 429 ? 'rate_limited' : (oauthErrors.get(this) ?? 'server_error');
      tokenRequests.inc({ outcome });
      if (status === 200) tokenIssue.observe(seconds);
    } else if (path === JWKS_PATH) keySetRequests.inc({ status: String(status) });
    else if (path === FEED_PATH) feedRequests.inc({ status: String(status) });
    else if (validation.has(path)) {
      validationRequests.inc({ endpoint: path, status: String(status) });
      validationSeconds.observe({ endpoint: path }, seconds);
    }
  }

  return {
    registry,
    /**
     * Called once per request of the public server: counts it by what it was once answered. One
     * shared listener, not a closure (and `once` wrapper) per request.
     */
    observe(_req: IncomingMessage, res: ServerResponse): void {
      (res as Observed)[STARTED] = performance.now();
      res.on('finish', onFinish);
    },
    close(): void {
      oauthErrorChannel.unsubscribe(onOAuthError);
      revocationChannel.unsubscribe(onRevocation);
      storeQueryChannel.unsubscribe(store);
      addressSearchChannel.unsubscribe(search);
    },
  };
}

export type UpstreamMetrics = ReturnType<typeof createUpstreamMetrics>;
