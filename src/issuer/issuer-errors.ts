/** An admin call the issuer refuses (bad input, not an internal failure): hosts answer 400 with the message. */
export class IssuerInputError extends Error {
  override readonly name = 'IssuerInputError';
}

/**
 * A disable that was stored but whose revocation of the client's outstanding tokens failed (the
 * store stopped answering in between): the client gets no new token, yet its tokens still work.
 * Disabling again writes the revocation; hosts say so rather than a bare internal error.
 */
export class ClientRevocationError extends Error {
  override readonly name = 'ClientRevocationError';
  constructor(clientId: string, cause: unknown) {
    super(
      `client ${JSON.stringify(clientId)} is disabled, but revoking its outstanding tokens failed (they may still work): disable it again`,
      { cause },
    );
  }
}

/**
 * A rotation refused because the next key has not been published long enough for every gateway to
 * hold it: the message says from when it can run. `notBefore` is epoch ms. An emergency rotation
 * is not refused.
 */
export class RotationTooEarlyError extends Error {
  override readonly name = 'RotationTooEarlyError';
  readonly notBefore: number;
  readonly retryAfterSec: number;
  constructor(opts: { notBefore: number; now: number; publishedForSec: number; requiredSec: number }) {
    const retryAfterSec = Math.ceil((opts.notBefore - opts.now) / 1000);
    super(
      `the next signing key has been published for ${opts.publishedForSec} s; it may sign once published for ${opts.requiredSec} s ` +
        `(the key set's max-age plus a margin, so every gateway holds it): rotate at or after ` +
        `${new Date(opts.notBefore).toISOString()} (in ${retryAfterSec} s), or now with an emergency rotation ` +
        `(keys rotate --now) if the active key is compromised`,
    );
    this.notBefore = opts.notBefore;
    this.retryAfterSec = retryAfterSec;
  }
}
