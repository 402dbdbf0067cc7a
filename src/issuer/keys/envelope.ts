import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { KeyEncryptionError } from './key-errors.ts';

/**
 * Private signing keys at rest: AES-256-GCM, the kid as associated data (an envelope cannot be
 * moved to another key's row). The 256-bit key is derived in two steps: scrypt once per process
 * from KEY_ENCRYPTION_KEY (robust even if an operator picks a passphrase), then HKDF-SHA256 with a
 * random salt per envelope.
 */
interface Envelope {
  v: 1;
  enc: 'A256GCM';
  salt: string;
  iv: string;
  tag: string;
  ct: string;
}

const SCRYPT_SALT = 'tokengate/key-encryption-key/v1';
const HKDF_INFO = 'tokengate signing key v1';

export class KeyWrapper {
  readonly #master: Buffer;

  constructor(keyEncryptionKey: string) {
    this.#master = scryptSync(keyEncryptionKey, SCRYPT_SALT, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  }

  wrap(kid: string, plaintext: string): string {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#derive(salt), iv).setAAD(Buffer.from(kid));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const envelope: Envelope = {
      v: 1,
      enc: 'A256GCM',
      salt: b64(salt),
      iv: b64(iv),
      tag: b64(cipher.getAuthTag()),
      ct: b64(ct),
    };
    return JSON.stringify(envelope);
  }

  unwrap(kid: string, stored: string): string {
    const envelope = parseEnvelope(stored);
    if (!envelope) throw new KeyEncryptionError(`signing key ${kid} is not an encrypted envelope`);
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.#derive(Buffer.from(envelope.salt, 'base64url')),
        Buffer.from(envelope.iv, 'base64url'),
      );
      decipher.setAAD(Buffer.from(kid)).setAuthTag(Buffer.from(envelope.tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(envelope.ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyEncryptionError('KEY_ENCRYPTION_KEY does not decrypt the stored signing keys (wrong key?)');
    }
  }

  #derive(salt: Buffer): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#master, salt, HKDF_INFO, 32));
  }
}

/** The envelope, or null when the stored value is a plain private JWK. */
export function parseEnvelope(stored: string): Envelope | null {
  const value: unknown = JSON.parse(stored);
  if (typeof value === 'object' && value !== null && (value as { enc?: unknown }).enc === 'A256GCM')
    return value as Envelope;
  return null;
}

function b64(buffer: Buffer): string {
  return buffer.toString('base64url');
}
