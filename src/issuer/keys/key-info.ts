import type { SigningKey } from '#store';
import type { SigningKeyInfo } from '../types.ts';
import { removeAfter } from './lifecycle.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What `keys list` shows: never a private member. */
export function keyInfo(key: SigningKey): SigningKeyInfo {
  return {
    kid: key.kid,
    alg: key.alg,
    status: key.status,
    createdAt: new Date(key.createdAt).toISOString(),
    activatedAt: iso(key.activatedAt),
    retiredAt: iso(key.retiredAt),
    removeAfter: iso(removeAfter(key)),
  };
}
