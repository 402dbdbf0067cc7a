import type { SigningKey, SigningKeyChange } from '#store';
import { NEXT_KEY_MIN_PUBLISHED_SEC, RETIRED_KEY_PUBLISHED_SEC } from '../limits.ts';

/**
 * The key lifecycle as pure functions over the stored keys: next (published, not signing) →
 * active (signing) → retired (published until every token it signed has expired) → removed.
 */

/** Epoch ms after which a retired key leaves the key set; null while it may still sign. */
export function removeAfter(key: SigningKey): number | null {
  return key.retiredAt === null ? null : key.retiredAt + RETIRED_KEY_PUBLISHED_SEC * 1000;
}

export function isExpired(key: SigningKey, now: number): boolean {
  const limit = removeAfter(key);
  return key.status === 'retired' && limit !== null && now >= limit;
}

/** The signer: the most recently activated active key (deterministic if two replicas raced). */
export function activeKey(keys: readonly SigningKey[]): SigningKey | undefined {
  return newest(
    keys.filter((k) => k.status === 'active'),
    (k) => k.activatedAt ?? 0,
  );
}

export function nextKey(keys: readonly SigningKey[]): SigningKey | undefined {
  return newest(
    keys.filter((k) => k.status === 'next'),
    (k) => k.createdAt,
  );
}

/**
 * Epoch ms from which a rotation may make this next key sign: once it has been published for the
 * key set's max-age plus a margin, so that every gateway (and any cache that honours max-age) has
 * fetched it. The next key of the first start may sign at once, also when another replica starting
 * at the same time created it moments after the active key: no key set is served until a next key
 * exists (keyring.ts), so none was ever served without it (once a rotation has run, a retired key
 * stays in the store for longer than the wait).
 */
export function promotableAt(next: SigningKey, keys: readonly SigningKey[]): number {
  const active = activeKey(keys);
  const firstPair = active !== undefined && !keys.some((k) => k.status === 'retired');
  return firstPair ? next.createdAt : next.createdAt + NEXT_KEY_MIN_PUBLISHED_SEC * 1000;
}

/**
 * Status changes of one rotation: next → active, every active → retired, each only from the
 * status it was read with (a rotation that landed meanwhile makes the store refuse them all).
 */
export function rotationChanges(keys: readonly SigningKey[], now: number): SigningKeyChange[] {
  const next = nextKey(keys);
  if (!next) throw new Error('no next key to promote');
  const retire = keys
    .filter((k) => k.status === 'active')
    .map((k) => ({
      kid: k.kid,
      status: 'retired' as const,
      activatedAt: k.activatedAt,
      retiredAt: now,
      from: 'active' as const,
    }));
  return [...retire, { kid: next.kid, status: 'active', activatedAt: now, retiredAt: null, from: 'next' }];
}

/**
 * A number that grows with every change of the published keys (a key created, promoted or
 * retired): the latest of their times. Gateways send the one they last saw to the feed, which
 * answers at once when its own is newer.
 */
export function keySetVersion(keys: readonly SigningKey[]): number {
  return Math.max(0, ...keys.map((k) => Math.max(k.createdAt, k.activatedAt ?? 0, k.retiredAt ?? 0)));
}

/** Key-set order: active first, then next, then retired (newest first). */
export function publishedOrder(keys: readonly SigningKey[], now: number): SigningKey[] {
  const rank = { active: 0, next: 1, retired: 2 } as const;
  return keys
    .filter((k) => !isExpired(k, now))
    .sort((a, b) => rank[a.status] - rank[b.status] || b.createdAt - a.createdAt);
}

function newest(keys: SigningKey[], by: (k: SigningKey) => number): SigningKey | undefined {
  return keys.sort((a, b) => by(b) - by(a) || a.kid.localeCompare(b.kid))[0];
}
