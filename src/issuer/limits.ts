/** The issuer's fixed numbers, in one place so tests and docs/api.md name the same values. */

/** Spec: default token lifetime (seconds). */
export const DEFAULT_LIFETIME_SEC = 900;
/** Spec: longest token lifetime (seconds); larger requests are capped to it. */
export const MAX_LIFETIME_SEC = 3600;
/** Clock skew allowed to verifiers; added wherever "no token can still be valid" is computed. */
export const SKEW_SEC = 60;
/** How long a retired key stays published after it stopped signing (every token it signed has expired). */
export const RETIRED_KEY_PUBLISHED_SEC = MAX_LIFETIME_SEC + SKEW_SEC;
/** Token and revocation request bodies (form-encoded) are tiny; anything larger is refused. */
export const MAX_FORM_BYTES = 8 * 1024;
/** `Cache-Control: max-age` of the key set and metadata (far shorter than the retired-key overlap). */
export const PUBLIC_MAX_AGE_SEC = 300;
/**
 * Beyond the key set's max-age, how long a next key stays published before a rotation may make it
 * sign: every replica's periodic reload (KEY_RELOAD_INTERVAL_MS) and a gateway's refresh that
 * failed once and is retried fit in it.
 */
export const KEY_PUBLISH_MARGIN_SEC = 60;
/** A next key signs only after it has been published this long (except in an emergency rotation). */
export const NEXT_KEY_MIN_PUBLISHED_SEC = PUBLIC_MAX_AGE_SEC + KEY_PUBLISH_MARGIN_SEC;
/**
 * Client records are cached this long (ms). Every change is announced and evicts at once on every
 * replica (store-changes.ts): the TTL only bounds a record whose announcement was lost.
 */
export const CLIENT_CACHE_TTL_MS = 10_000;
/**
 * Every replica re-reads the key set this often (ms): the safety net behind the store's change
 * announcement, which makes a rotation done elsewhere sign here at once.
 */
export const KEY_RELOAD_INTERVAL_MS = 10_000;
/** Expired revocation entries are pruned from the store this often (ms). */
export const REVOCATION_PRUNE_INTERVAL_MS = 60_000;
/** Longest feed long-poll (seconds) and most entries per feed response. */
export const FEED_MAX_WAIT_SEC = 30;
export const FEED_MAX_ENTRIES = 5000;
/** Concurrent feed long-polls held at once (each gateway holds one). */
export const FEED_MAX_WAITERS = 1000;
/** A client assertion (RFC 7523) may expire at most this far ahead (seconds); its jti is kept that long. */
export const MAX_ASSERTION_LIFETIME_SEC = 300;
/** Clock skew allowed on a client assertion's `exp`, `nbf` and `iat` (seconds). */
export const ASSERTION_SKEW_SEC = 30;
/** How far a DPoP proof's `iat` may be from now at the token endpoint (seconds); its jti is kept that long. */
export const DPOP_IAT_WINDOW_SEC = 60;
