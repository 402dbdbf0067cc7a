import type { SigningKey } from '#store';
import type { SigningKeyInfo } from '../types.ts';
import { promotableAt, removeAfter } from './lifecycle.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What `keys list` shows (`keys`: every stored key, to find the active one): never a private member. */
export function keyInfo(key: SigningKey, keys: readonly SigningKey[]): SigningKeyInfo {
  return {
    kid: key.kid,
    alg: key.alg,
    status: key.status,
    createdAt: new Date(key.createdAt).toISOString(),
    activatedAt: iso(key.activatedAt),
    retiredAt: iso(key.retiredAt),
    removeAfter: iso(removeAfter(key)),
    promotableAt: key.status === 'next' ? iso(promotableAt(key, keys)) : null,
  };
}
