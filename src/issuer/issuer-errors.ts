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
