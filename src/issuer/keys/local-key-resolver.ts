import type { KeyObject } from 'node:crypto';
import type { KeyResolver } from '#auth';
import type { Clock } from '#common';
import type { Keyring } from './keyring.ts';

/** Unknown kids reload the key set at most this often (an attacker's random kids cost one query a second). */
const REFRESH_COOLDOWN_MS = 1000;

/**
 * The upstream's own verification keys (defence in depth): every published key, straight from
 * the keyring, no HTTP. An unknown kid reloads from the store once per cooldown, which is how a
 * key created by another replica's rotation is picked up before the periodic reload.
 */
export function localKeyResolver(keyring: Keyring, clock: Clock): KeyResolver {
  let lastRefresh = Number.NEGATIVE_INFINITY;
  return {
    get: (kid) => keyring.publicKey(kid)?.key,
    alg: (kid) => keyring.publicKey(kid)?.alg,
    ready: () => keyring.ready,
    async refreshFor(kid): Promise<KeyObject | undefined> {
      if (clock.now() - lastRefresh >= REFRESH_COOLDOWN_MS) {
        lastRefresh = clock.now();
        await keyring.load();
      }
      return keyring.publicKey(kid)?.key;
    },
  };
}
