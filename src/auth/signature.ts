import { constants, type KeyObject, verify } from 'node:crypto';
import type { SupportedAlgorithm } from './algorithms.ts';

/**
 * Verifies a JWS signature with node:crypto directly. The KeyObject itself is passed wherever the
 * key's defaults are right (RS256, ES256, EdDSA): Node 24 spends ~7 µs per call recognising an
 * options object `{key, ...}` (isKeyObject/isCryptoKey probes), a third of an RS256 verify.
 * So ES256's raw R||S (RFC 7518 §3.4) is re-encoded to DER here instead of asking for
 * `dsaEncoding: 'ieee-p1363'`; only PS256 needs the options object (PSS padding, salt 32).
 */
export function verifySignature(
  alg: SupportedAlgorithm,
  key: KeyObject,
  signingInput: string,
  signature: Buffer,
): boolean {
  const data = Buffer.from(signingInput, 'latin1');
  try {
    switch (alg) {
      case 'RS256':
        return verify('sha256', data, key, signature);
      case 'ES256':
        return signature.length === 64 && verify('sha256', data, key, p1363ToDer(signature));
      case 'EdDSA':
        return signature.length === 64 && verify(null, data, key, signature);
      case 'PS256':
        return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
    }
  } catch {
    // Malformed signatures may throw rather than return false.
    return false;
  }
}

/** One DER INTEGER from a 32-byte big-endian half: minimal length, a 0x00 when the top bit is set. */
function derInteger(half: Buffer): Buffer {
  let start = 0;
  while (start < half.length - 1 && half[start] === 0) start += 1;
  const body = half.subarray(start);
  const pad = (body[0] ?? 0) & 0x80 ? 1 : 0;
  const out = Buffer.alloc(2 + pad + body.length);
  out[0] = 0x02;
  out[1] = pad + body.length;
  body.copy(out, 2 + pad);
  return out;
}

/** ECDSA P-256 signature: JOSE raw R||S (64 bytes) → ASN.1 DER SEQUENCE { r, s }. */
export function p1363ToDer(signature: Buffer): Buffer {
  const r = derInteger(signature.subarray(0, 32));
  const s = derInteger(signature.subarray(32, 64));
  return Buffer.concat([Buffer.from([0x30, r.length + s.length]), r, s]);
}
