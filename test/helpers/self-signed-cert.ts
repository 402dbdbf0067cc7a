import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface CertPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * A throwaway certificate for 127.0.0.1 and its key, written to `dir` as `<name>.cert.pem` and
 * `<name>.key.pem`: Node cannot create X.509 certificates by itself, so the openssl CLI makes it.
 * `name` is also the certificate's common name, so a test can tell two apart.
 */
export function makeSelfSignedCert(dir: string, name = '127.0.0.1'): CertPair {
  const pair = { cert: join(dir, `${name}.cert.pem`), key: join(dir, `${name}.key.pem`) };
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      pair.key,
      '-out',
      pair.cert,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return pair;
}
