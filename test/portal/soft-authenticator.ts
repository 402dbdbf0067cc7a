import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A WebAuthn authenticator in software (ES256, attestation "none"), for the tests that drive the
 * portal over HTTP: it answers the options a page carries as the browser's script would post them,
 * and can be told to lie (another origin, a counter going back) to show each refusal.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const out = Buffer.alloc(3);
  out[0] = (major << 5) | 25;
  out.writeUInt16BE(length, 1);
  return out;
}

/** The little CBOR (RFC 8949) an attestation needs: small integers, strings, bytes and maps. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');

interface Options {
  challenge: string;
  rp?: { id: string };
  user?: { id: string };
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #key: KeyObject;
  readonly #publicKey: KeyObject;
  /** The user handle the site gave at registration (base64url), given back with each assertion. */
  #userHandle = '';
  counter = 0;

  constructor() {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#key = pair.privateKey;
    this.#publicKey = pair.publicKey;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  #authData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The answer to `navigator.credentials.create` for these options, as passkey.js posts it. */
  create(options: Options, origin: string): string {
    this.#userHandle = options.user?.id ?? '';
    const jwk = this.#publicKey.export({ format: 'jwk' });
    const cose = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, cbor(cose)]);
    const authData = this.#authData(options.rp?.id ?? '', 0x45, attested);
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin });
    return this.#answer({
      clientDataJSON: b64(Buffer.from(clientData)),
      attestationObject: b64(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal'],
    });
  }

  /** The answer to `navigator.credentials.get`; each one counts up, unless `counter` is set back. */
  get(options: Options, origin: string, rpId = options.rpId ?? ''): string {
    this.counter += 1;
    const authData = this.#authData(rpId, 0x05);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#key);
    return this.#answer({
      clientDataJSON: b64(clientData),
      authenticatorData: b64(authData),
      signature: b64(signature),
      userHandle: this.#userHandle,
    });
  }

  /** The credential as passkey.js posts it, around the authenticator's response. */
  #answer(response: Record<string, unknown>): string {
    return JSON.stringify({ id: this.id, rawId: this.id, type: 'public-key', clientExtensionResults: {}, response });
  }
}

/** The options a page carries for passkey.js (`data-passkey-create` / `data-passkey-get`), read back. */
export function pageOptions(page: string, mode: 'create' | 'get'): Options {
  const match = new RegExp(`data-passkey-${mode}="([^"]*)"`).exec(page);
  if (!match?.[1]) throw new Error(`no data-passkey-${mode} on the page`);
  const text = match[1]
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return JSON.parse(text) as Options;
}
