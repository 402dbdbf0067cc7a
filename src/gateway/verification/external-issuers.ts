import {
  createExternalVerifier,
  createIntrospector,
  createRemoteKeySet,
  discover,
  type ExternalVerifier,
  type IntrospectionUse,
  type IssuerMetadata,
  type KeyResolver,
  type KeySetEvent,
  type RemoteKeySet,
} from '#auth';
import type { Clock, Logger } from '#common';
import type { ExternalIssuerConfig } from '../config/file/external-issuers.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { keySetOptions } from './key-set-options.ts';

/** The external issuers of one configuration: a verifier and its own key set each. */
export interface ExternalIssuers {
  readonly verifiers: readonly ExternalVerifier[];
  /** Starts every key set (discovery first where configured); never waited for by readiness. */
  start(): void;
  stop(): void;
}

interface Deps {
  readonly log: Logger;
  readonly clock: Clock | undefined;
  readonly metrics: GatewayMetrics;
}

/** A key set that learns its URL from the issuer's metadata first (retried until it succeeds). */
interface StartableKeys extends KeyResolver {
  start(): Promise<void>;
  stop(): void;
  /** The issuer's metadata once discovered (discoveryUrl only). */
  metadata?(): IssuerMetadata | undefined;
}

const MAX_RETRY_MS = 30_000;

export function createExternalIssuers(config: GatewayConfig, deps: Deps): ExternalIssuers {
  const abort = new AbortController();
  const sets: StartableKeys[] = [];
  const verifiers = config.externalIssuers.map((issuer) => {
    const keys = keysOf(issuer, deps, abort.signal);
    sets.push(keys);
    return createExternalVerifier({
      name: issuer.name,
      issuer: issuer.issuer,
      audience: issuer.audience,
      algorithms: issuer.algorithms,
      clockToleranceSec: issuer.clockToleranceSec,
      maxTokenLifetimeSec: issuer.maxTokenLifetimeSec,
      tokenTypes: issuer.tokenTypes,
      claims: issuer.claims,
      keys,
      clock: deps.clock,
      tokenCache: config.caches.tokens,
      negativeCache: config.caches.negative,
      introspection: introspectionOf(issuer, keys, deps),
    });
  });
  return {
    verifiers,
    start() {
      for (const keys of sets) keys.start().catch(() => undefined);
    },
    stop() {
      abort.abort();
      for (const keys of sets) keys.stop();
    },
  };
}

function keysOf(issuer: ExternalIssuerConfig, deps: Deps, signal: AbortSignal): StartableKeys {
  const log = deps.log.child({ issuer: issuer.name });
  const make = (url: string): RemoteKeySet =>
    createRemoteKeySet({
      url,
      algorithms: issuer.algorithms,
      ...keySetOptions(issuer.keySet),
      log,
      onEvent: (event) => recordEvent(deps.metrics, issuer.name, event),
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
  if (issuer.jwksUrl !== undefined) return make(issuer.jwksUrl);
  const discoveryUrl = issuer.discoveryUrl as string;
  let inner: RemoteKeySet | undefined;
  let discovered: IssuerMetadata | undefined;
  return {
    metadata: () => discovered,
    get: (kid) => inner?.get(kid),
    refreshFor: (kid) => (inner === undefined ? Promise.resolve(undefined) : inner.refreshFor(kid)),
    ready: () => inner?.ready() ?? false,
    alg: (kid) => inner?.alg?.(kid),
    async start() {
      for (let attempt = 0; !signal.aborted; attempt++) {
        try {
          const metadata = await discover(discoveryUrl, issuer.issuer, issuer.keySet.fetchTimeoutMs, signal);
          discovered = metadata;
          inner = make(metadata.jwksUri);
          if (signal.aborted) inner.stop();
          else await inner.start();
          return;
        } catch (error) {
          if (signal.aborted) return;
          log.warn({ err: String(error) }, 'external issuer: discovery failed; retrying');
          const delay = Math.min(MAX_RETRY_MS, 1000 * 2 ** attempt);
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
        }
      }
    },
    stop: () => inner?.stop(),
  };
}

function introspectionOf(issuer: ExternalIssuerConfig, keys: StartableKeys, deps: Deps): IntrospectionUse | undefined {
  const config = issuer.introspection;
  if (config === undefined) return undefined;
  const introspector = createIntrospector({
    url: config.url ?? (() => keys.metadata?.()?.introspectionEndpoint),
    issuer: issuer.issuer,
    audience: issuer.audience,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    cacheMaxSec: config.cacheMaxSec,
    negativeCacheSec: config.negativeCacheSec,
    maxConcurrent: config.maxConcurrent,
    timeoutMs: config.timeoutMs,
    clock: deps.clock,
  });
  return { introspector, tokens: config.tokens, failOpen: config.failOpen, cacheMaxSec: config.cacheMaxSec };
}

function recordEvent(metrics: GatewayMetrics, issuer: string, event: KeySetEvent): void {
  if (event.type === 'fetch_ok') metrics.externalKeySetFetches.inc({ issuer, outcome: 'ok' });
  else if (event.type === 'fetch_failed') metrics.externalKeySetFetches.inc({ issuer, outcome: 'failed' });
  else if (event.type === 'unknown_kid') metrics.externalUnknownKid.inc({ issuer, refetched: String(event.refetched) });
}
