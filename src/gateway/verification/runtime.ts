import {
  type Authorize,
  createDpopNonces,
  createIssuerDispatch,
  createRedisReplayCache,
  createRemoteKeySet,
  createRevocationFeedClient,
  createRevocationSet,
  createVerifier,
  type DpopReplayCache,
  type KeySetEvent,
  type RevocationFeedClient,
  type Verifier,
} from '#auth';
import { type Clock, type Logger, systemClock } from '#common';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { GatewayMetrics, MetricsSource } from '../ops/metrics.ts';
import { OWN_ISSUER } from '../config/file/external-issuers.ts';
import { createExternalIssuers } from './external-issuers.ts';
import { resolveFeedToken } from './feed-token.ts';
import { keySetOptions } from './key-set-options.ts';
import { type ReadinessReport, readinessOf } from './readiness.ts';

/** The verification plugin as the gateway hosts it: key set + revocation feed + verifier. */
export interface AuthRuntime {
  readonly verifier: Verifier;
  /**
   * The check of a route that accepts external issuers (`routes[].issuers`), built on first use
   * and kept per route; a route of tokengate's own issuer alone calls `verifier` directly.
   */
  forIssuers(names: readonly string[]): Authorize;
  readonly metricsSource: MetricsSource;
  readiness(): ReadinessReport;
  /** Resolves once keys are loaded and revocations synced (background loops keep retrying). */
  ready(): Promise<void>;
  close(): void;
}

export interface AuthRuntimeDeps {
  readonly log: Logger;
  readonly clock?: Clock | undefined;
  readonly metrics: GatewayMetrics;
  /** The DPoP proofs this process accepted, kept across reloads; used when the gateways share no Redis. */
  readonly memoryReplay?: DpopReplayCache | undefined;
}

/**
 * How long the issuer may hold a quiet long poll: half the staleness bound (at most the usual
 * 20 s), so a healthy feed with nothing new always answers before the set turns stale. A
 * revocation still arrives at once: the issuer answers a held poll as soon as one is recorded.
 */
function feedHoldSec(maxStalenessSec: number): number {
  return Math.min(20, Math.floor(maxStalenessSec / 2));
}

export function createAuthRuntime(config: GatewayConfig, deps: AuthRuntimeDeps): AuthRuntime {
  const { issuer, caches, revocation } = config;
  const { log, clock, metrics } = deps;
  const clockOption = clock ? { clock } : {};
  const keySet = createRemoteKeySet({
    url: issuer.jwksUrl,
    algorithms: issuer.algorithms,
    ...keySetOptions(issuer.keySet),
    log,
    onEvent: (event) => recordKeySetEvent(metrics, event),
    ...clockOption,
  });
  const revocations = createRevocationSet({
    maxStalenessSec: revocation.maxStalenessSec,
    failOpen: revocation.failOpen,
    ...clockOption,
  });
  // Shared with every gateway through their Redis when there is one, else this process's memory
  // (start.ts keeps it across reloads).
  const redis = config.dpop.replayRedis;
  const redisReplay =
    redis === undefined
      ? undefined
      : createRedisReplayCache(redis.url, redis.keyPrefix, redis.timeoutMs, () => (clock ?? systemClock).now(), log);
  const replay = redisReplay ?? deps.memoryReplay;
  // htu as the client saw it: the public base URL (dpop.publicUrl, else the issuer identifier) and
  // the path, whatever scheme and host this hop was reached by behind a proxy or load balancer.
  const publicBase = config.dpop.publicUrl;
  // Stateless (an HMAC of the secret and the minute): every gateway sharing the secret accepts them.
  const nonces = createDpopNonces({
    mode: config.dpop.nonce,
    secret: config.dpop.nonceSecret,
    now: () => (clock ?? systemClock).now(),
  });
  const verifier = createVerifier({
    issuer: issuer.issuer,
    audience: issuer.audience,
    algorithms: issuer.algorithms,
    clockToleranceSec: issuer.clockToleranceSec,
    keys: keySet,
    revocations,
    tokenCache: caches.tokens,
    negativeCache: caches.negative,
    // A server: misses are verified back to back per event-loop turn (src/auth/batch.ts).
    batchSignatureChecks: true,
    dpop: { htu: (request) => htuOf(publicBase, request.url), nonces, ...(replay ? { replay } : {}) },
    ...clockOption,
  });

  // Each with its own key set, caches and metrics label; readiness never waits for them.
  const external = createExternalIssuers(config, { log, clock, metrics });
  external.start();
  const dispatch = createIssuerDispatch({
    own: { name: OWN_ISSUER, issuer: issuer.issuer, verifier },
    external: external.verifiers,
  });
  const checks = new WeakMap<readonly string[], Authorize>();
  const forIssuers = (names: readonly string[]): Authorize => {
    let check = checks.get(names);
    if (check === undefined) {
      check = dispatch.forIssuers(names);
      checks.set(names, check);
    }
    return check;
  };

  const abort = new AbortController();
  let feed: RevocationFeedClient | undefined;
  const keysStarted = keySet.start().catch((error: unknown) => {
    // Closed before the keys loaded (a failed start, a stop): nothing is retried, so say nothing.
    if (!abort.signal.aborted) log.warn({ err: String(error) }, 'key set: first load failed; retrying');
  });
  const feedStarted = resolveFeedToken(issuer.revocationFeed, abort.signal).then((token) => {
    if (abort.signal.aborted) return;
    feed = createRevocationFeedClient({
      url: issuer.revocationFeed.url,
      token,
      set: revocations,
      waitSec: feedHoldSec(revocation.maxStalenessSec),
      // A key the issuer announces is fetched at once, past the unknown-kid cooldown.
      onKeys: (kids) => keySet.announce(kids),
      log,
      ...clockOption,
    });
    return feed.start();
  });
  feedStarted.catch(() => undefined);

  const readiness = () => readinessOf(keySet.ready(), keySet.status(), revocations.status());
  return {
    verifier,
    forIssuers,
    readiness,
    metricsSource: {
      verifierStats: () => verifier.stats?.(),
      keySetAgeSec: () => keySet.status().ageSec,
      revocationLagSec: () => revocations.status().lagSec,
      revocationStale: () => revocations.status().stale,
    },
    async ready() {
      await Promise.all([keysStarted, feedStarted]);
      await waitUntil(() => readiness().ready, abort.signal);
    },
    close() {
      abort.abort();
      keySet.stop();
      external.stop();
      feed?.stop();
      redisReplay?.close();
    },
  };
}

function recordKeySetEvent(metrics: GatewayMetrics, event: KeySetEvent): void {
  if (event.type === 'fetch_ok') metrics.keySetFetches.inc({ outcome: 'ok' });
  else if (event.type === 'fetch_failed') metrics.keySetFetches.inc({ outcome: 'failed' });
  else if (event.type === 'unknown_kid') metrics.unknownKid.inc({ refetched: String(event.refetched) });
  else if (event.type === 'stale_served') metrics.staleKeysServed.inc();
}

/** The key-set loop retries on its own after a failed first load; poll until it succeeds. */
async function waitUntil(condition: () => boolean, signal: AbortSignal): Promise<void> {
  while (!condition()) {
    if (signal.aborted) throw new Error('gateway closed before it became ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The URL a proof's htu must name: the public base and the request's path, or, in forward-auth,
 * the absolute URL the proxy reported (server/authorize.ts; a target the gateway receives itself
 * is always in origin form by then: request-target.ts).
 */
function htuOf(publicBase: string, target: string | undefined): string {
  if (target !== undefined && target.charCodeAt(0) !== 0x2f) return target;
  return publicBase + requestPath(target);
}

/** The request target's path (a query is no part of `htu`). */
function requestPath(target: string | undefined): string {
  if (target === undefined) return '/';
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}
