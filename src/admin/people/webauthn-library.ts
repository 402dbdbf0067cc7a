/**
 * @simplewebauthn/server, loaded at the first passkey step rather than at start: with its ASN.1
 * and X.509 dependencies it was the costliest import of an upstream's start (importing the
 * upstream and portal took 540 ms of CPU without it, 600-640 ms with it), for a feature most
 * starts never use.
 */
let loading: Promise<typeof import('@simplewebauthn/server')> | undefined;

export function webauthnLibrary(): Promise<typeof import('@simplewebauthn/server')> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}
