import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Clock, Logger } from '#common';
import { type SigningKey, type SigningKeyStore, StoreError } from '#store';
import { createJwtSigner, type JwtSigner } from '../tokens/jwt-signer.ts';
import type { SigningAlg } from './algorithms.ts';
import { type KeyWrapper, parseEnvelope } from './envelope.ts';
import { KeyEncryptionError } from './key-errors.ts';
import { RotationTooEarlyError } from '../issuer-errors.ts';
import type { KeyAnnouncement, KeyAnnouncer } from './announcement.ts';
import {
  activeKey,
  isExpired,
  keySetVersion,
  nextKey,
  promotableAt,
  publishedOrder,
  rotationChanges,
} from './lifecycle.ts';
import { newSigningKey } from './new-key.ts';
import { NEXT_KEY_MIN_PUBLISHED_SEC } from '../limits.ts';

export interface PublishedKeySet {
  readonly body: string;
  readonly etag: string;
}

interface KeyringState {
  readonly keys: readonly SigningKey[];
  readonly signer: JwtSigner;
  readonly publicKeys: ReadonlyMap<string, { key: KeyObject; alg: string }>;
  readonly keySet: PublishedKeySet;
  readonly announcement: KeyAnnouncement;
}

/**
 * The signing keys as this replica sees them. `load()` reads the store, creates what is missing
 * (an active and a next key), removes retired keys no token can need, decrypts the keys that
 * sign or will sign, and swaps in a new immutable state. Every replica calls it on an interval
 * and on an unknown kid, which is how a rotation made elsewhere is noticed. When the published key
 * set changes it tells its listeners (the revocation feed, which announces it to gateways).
 */
export class Keyring implements KeyAnnouncer {
  readonly #store: SigningKeyStore;
  readonly #alg: SigningAlg;
  readonly #wrapper: KeyWrapper | null;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #privateKeys = new Map<string, KeyObject>();
  readonly #listeners = new Set<() => void>();
  #state: KeyringState | null = null;
  #loading: Promise<void> | null = null;
  #reloadQueued: Promise<void> | null = null;

  constructor(opts: {
    store: SigningKeyStore;
    alg: SigningAlg;
    wrapper: KeyWrapper | null;
    clock: Clock;
    log: Logger;
  }) {
    this.#store = opts.store;
    this.#alg = opts.alg;
    this.#wrapper = opts.wrapper;
    this.#clock = opts.clock;
    this.#log = opts.log;
  }

  /** One load in flight at a time; concurrent callers share it. */
  load(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  /**
   * Reads the store again after a change announced by any replica: once the load in flight (which
   * may have read before the change) is done, one more; calls meanwhile share that one. It only
   * reads: announced mid-rotation (the next key promoted, its successor not created yet), it must
   * not create the missing next key that the rotating replica is about to insert.
   */
  reloadAfterChange(): Promise<void> {
    this.#reloadQueued ??= (this.#loading ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.#reloadQueued = null;
        this.#loading ??= this.#read().finally(() => {
          this.#loading = null;
        });
        return this.#loading;
      });
    return this.#reloadQueued;
  }

  /** The keys as stored, swapped in (no key created or removed). */
  async #read(): Promise<void> {
    const now = this.#clock.now();
    const keys = (await this.#store.listSigningKeys()).filter((k) => !isExpired(k, now));
    if (!activeKey(keys)) return; // nothing can sign yet: the next load() creates it
    // First start on another replica, between its active and its next key: serving this set would
    // make that next key one a key set was served without (lifecycle.ts promotableAt).
    if (!nextKey(keys) && !keys.some((k) => k.status === 'retired')) return;
    this.#swap(this.#build(keys, now));
  }

  #swap(state: KeyringState): void {
    const previous = this.#state;
    this.#state = state;
    if (previous !== null && previous.keySet.etag !== state.keySet.etag) this.#changed();
  }

  get ready(): boolean {
    return this.#state !== null;
  }

  get signer(): JwtSigner {
    return this.#current().signer;
  }

  get keySet(): PublishedKeySet {
    return this.#current().keySet;
  }

  get keys(): readonly SigningKey[] {
    return this.#current().keys;
  }

  publicKey(kid: string): { key: KeyObject; alg: string } | undefined {
    return this.#state?.publicKeys.get(kid);
  }

  announcement(): KeyAnnouncement {
    return this.#current().announcement;
  }

  onChange(listener: () => void): () => void {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * next → active, active → retired, and a new next; then reload. Refused (RotationTooEarlyError)
   * while the next key has been published for less than the key set's max-age plus a margin, since
   * a gateway may not hold it yet; `now` (an emergency rotation: the active key is compromised)
   * promotes it anyway. Rotations requested at once (here or on another replica) run as one: the
   * store refuses every one whose keys changed since it read them, since the rotation that changed
   * them already retired the key they would retire; those answer with the key that rotation promoted.
   */
  async rotate(options: { now?: boolean } = {}): Promise<{ kid: string }> {
    const now = this.#clock.now();
    const keys = await this.#ensureKeys(await this.#store.listSigningKeys(), now);
    this.#checkPublishedLongEnough(keys, now, options.now === true);
    const changes = rotationChanges(keys, now);
    // Promote first: the store holds one next key at a time. Whoever inserts the new one first
    // (this rotation, a concurrent one, or another replica's load) provides it; if we stop in
    // between, the next load creates it.
    try {
      await this.#store.updateSigningKeys(changes);
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'signing_keys_changed')) throw error;
      await this.#loadAfterWrite();
      this.#log.info(
        { kid: this.signer.kid },
        'a concurrent rotation promoted the signing key first; this one joins it',
      );
      return { kid: this.signer.kid };
    }
    await this.#create('next', keys, now);
    await this.#loadAfterWrite();
    const kid = this.signer.kid;
    this.#log.info(
      {
        kid,
        retired: changes.filter((c) => c.status === 'retired').map((c) => c.kid),
        emergency: options.now === true,
      },
      'signing keys rotated',
    );
    return { kid };
  }

  /** Throws unless the next key may sign now; an emergency rotation only logs that it may not. */
  #checkPublishedLongEnough(keys: readonly SigningKey[], now: number, emergency: boolean): void {
    const next = nextKey(keys);
    if (!next) return;
    const notBefore = promotableAt(next, keys);
    if (now >= notBefore) return;
    const publishedForSec = Math.floor((now - next.createdAt) / 1000);
    if (!emergency)
      throw new RotationTooEarlyError({ notBefore, now, publishedForSec, requiredSec: NEXT_KEY_MIN_PUBLISHED_SEC });
    this.#log.warn(
      { kid: next.kid, publishedForSec },
      'emergency rotation: promoting a next key published for less than the key-set max-age plus margin',
    );
  }

  /**
   * A load that reads the store after our write: one already in flight (the periodic reload, a
   * concurrent rotation's) may have read it before, and would leave us signing with the key we
   * just retired and answering its kid as the promoted one.
   */
  async #loadAfterWrite(): Promise<void> {
    await this.#loading?.catch(() => undefined);
    await this.load();
  }

  async #load(): Promise<void> {
    const now = this.#clock.now();
    let keys = await this.#ensureKeys(await this.#store.listSigningKeys(), now);
    for (const key of keys.filter((k) => isExpired(k, now))) {
      await this.#store.deleteSigningKey(key.kid);
      this.#log.info({ kid: key.kid }, 'retired signing key removed from the key set');
    }
    keys = keys.filter((k) => !isExpired(k, now));
    this.#swap(this.#build(keys, now));
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#log.error({ err: error }, 'key set change listener failed');
      }
    }
  }

  /** First start: an active and a next key; afterwards: always a next key ready to promote. */
  async #ensureKeys(keys: SigningKey[], now: number): Promise<SigningKey[]> {
    let out = keys;
    if (!activeKey(out)) out = await this.#create('active', out, now);
    if (!nextKey(out)) out = await this.#create('next', out, now);
    return out;
  }

  /**
   * Adds a new key of that status; returns the keys with it. The store refuses a second active
   * or next key: when another replica (starting or rotating at the same time) inserted its key
   * first, returns the keys as stored instead, with that replica's key.
   */
  async #create(status: 'active' | 'next', keys: SigningKey[], now: number): Promise<SigningKey[]> {
    const created = await newSigningKey(this.#alg, status, now, this.#wrapper);
    try {
      await this.#store.insertSigningKey(created);
    } catch (error) {
      if (!(error instanceof StoreError && error.code === `${status}_signing_key_exists`)) throw error;
      this.#log.info({ status }, 'another replica created the signing key first; using its key');
      return this.#store.listSigningKeys();
    }
    if (status === 'active') this.#log.info({ kid: created.kid, alg: this.#alg }, 'signing key created');
    return [...keys, created];
  }

  #build(keys: SigningKey[], now: number): KeyringState {
    const active = activeKey(keys);
    if (!active) throw new Error('no active signing key');
    for (const key of [active, nextKey(keys)]) if (key) this.#privateKey(key);
    const published = publishedOrder(keys, now);
    const publicKeys = new Map(
      published.map((k) => [k.kid, { key: createPublicKey({ key: k.publicJwk, format: 'jwk' }), alg: k.alg }]),
    );
    const body = JSON.stringify({ keys: published.map((k) => k.publicJwk) });
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    const signer = createJwtSigner(active.kid, active.alg as SigningAlg, this.#privateKey(active));
    const announcement = { version: keySetVersion(published), kids: published.map((k) => k.kid) };
    return { keys, signer, publicKeys, keySet: { body, etag }, announcement };
  }

  /** Decrypted once per key and process. */
  #privateKey(key: SigningKey): KeyObject {
    const cached = this.#privateKeys.get(key.kid);
    if (cached) return cached;
    const envelope = parseEnvelope(key.privateKey);
    if (envelope && !this.#wrapper) {
      throw new KeyEncryptionError('the stored signing keys are encrypted at rest but KEY_ENCRYPTION_KEY is not set');
    }
    if (!envelope && this.#wrapper)
      this.#log.warn({ kid: key.kid }, 'signing key stored unencrypted although KEY_ENCRYPTION_KEY is set');
    const jwk = envelope && this.#wrapper ? this.#wrapper.unwrap(key.kid, key.privateKey) : key.privateKey;
    const privateKey = createPrivateKey({ key: JSON.parse(jwk) as import('node:crypto').JsonWebKey, format: 'jwk' });
    this.#privateKeys.set(key.kid, privateKey);
    return privateKey;
  }

  #current(): KeyringState {
    if (!this.#state) throw new Error('keyring not loaded');
    return this.#state;
  }
}
