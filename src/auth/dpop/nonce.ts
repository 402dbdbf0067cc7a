import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Server-provided DPoP nonces (RFC 9449 §8, §9): `off` neither issues nor checks them (a proof's
 * `nonce` is ignored); `supported` hands them out and checks one when a proof carries it;
 * `required` refuses a proof without a current one (`use_dpop_nonce`).
 */
export const DPOP_NONCE_MODES = ['off', 'supported', 'required'] as const;
export type DpopNonceMode = (typeof DPOP_NONCE_MODES)[number];

/** A nonce names one time slot of this length; the current and the previous slot's are accepted. */
export const DPOP_NONCE_SLOT_SEC = 60;
/** base64url of an HMAC-SHA256: every nonce we issue has this length, so nothing else is compared. */
const NONCE_LENGTH = 43;

export interface DpopNonces {
  readonly mode: 'supported' | 'required';
  /** The nonce to send in `DPoP-Nonce` now. */
  current(): string;
  /** Whether an untrusted value (any type) is the current or the previous slot's nonce. */
  accepts(value: unknown): boolean;
}

export interface DpopNonceOptions {
  readonly mode: DpopNonceMode;
  /** Servers sharing it accept each other's nonces; unset, a random secret of this process. */
  readonly secret?: string | undefined;
  /** Epoch milliseconds now. */
  readonly now: () => number;
  readonly slotSec?: number;
}

let processSecret: Buffer | undefined;

/** One random secret per process, so that a reload (or a gateway beside the issuer) keeps accepting nonces. */
function secretOfThisProcess(): Buffer {
  processSecret ??= randomBytes(32);
  return processSecret;
}

/**
 * Stateless nonces: HMAC(secret, slot), so any replica holding the secret checks them with no
 * round trip and no memory beyond the two slots' values, which are computed once per slot.
 * Undefined when `mode` is `off`.
 */
export function createDpopNonces(options: DpopNonceOptions): DpopNonces | undefined {
  if (options.mode === 'off') return undefined;
  const key = options.secret === undefined ? secretOfThisProcess() : Buffer.from(options.secret, 'utf8');
  const slotMs = (options.slotSec ?? DPOP_NONCE_SLOT_SEC) * 1000;
  const nonceOf = (slot: number) => createHmac('sha256', key).update(`tokengate dpop-nonce ${slot}`).digest();
  let slot = Number.NaN;
  let current = Buffer.alloc(0);
  let previous = Buffer.alloc(0);
  let currentText = '';
  const refresh = () => {
    const now = Math.floor(options.now() / slotMs);
    if (now === slot) return;
    previous = now === slot + 1 ? current : nonceOf(now - 1);
    current = nonceOf(now);
    currentText = current.toString('base64url');
    slot = now;
  };
  return {
    mode: options.mode,
    current() {
      refresh();
      return currentText;
    },
    accepts(value) {
      if (typeof value !== 'string' || value.length !== NONCE_LENGTH) return false;
      const given = Buffer.from(value, 'base64url');
      // base64url decoding skips stray characters: only a value that round-trips is ours.
      if (given.length !== 32 || given.toString('base64url') !== value) return false;
      refresh();
      return timingSafeEqual(given, current) || timingSafeEqual(given, previous);
    },
  };
}
