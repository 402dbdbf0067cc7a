/** An admin call the issuer refuses (bad input, not an internal failure): hosts answer 400 with the message. */
export class IssuerInputError extends Error {
  override readonly name = 'IssuerInputError';
}
