import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { GatewayConfig } from '../config/gateway-config.ts';

export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** The listener's certificate and key, as their files hold them now. */
export function readTlsFiles(tls: NonNullable<GatewayConfig['tls']>): TlsFiles {
  return { cert: readFileSync(tls.cert), key: readFileSync(tls.key) };
}

/**
 * A reload reads the certificate and key again, so a renewed certificate written over the old
 * files (certbot and most ACME clients keep the paths) is served after SIGHUP, without a restart
 * and without dropping a connection. A pair that cannot be read or does not match throws here,
 * before anything is swapped: the reload is refused and the running certificate stays.
 * Returns what applies it, or undefined when the listener is plain HTTP (switching between the
 * two needs a restart: needs-restart.ts).
 */
export function prepareTlsReload(listener: Server, tls: GatewayConfig['tls']): (() => void) | undefined {
  if (tls === undefined || !(listener instanceof HttpsServer)) return undefined;
  let files: TlsFiles;
  try {
    files = readTlsFiles(tls);
    createSecureContext(files);
  } catch (error) {
    throw new Error(`tls: ${error instanceof Error ? error.message : String(error)}`);
  }
  return () => listener.setSecureContext(files);
}
