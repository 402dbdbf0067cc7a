/** Start-up failures of the key store: the host should print the message and exit. */
export class KeyEncryptionError extends Error {
  override readonly name = 'KeyEncryptionError';
}
