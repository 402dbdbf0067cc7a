import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** The base URL a listener actually bound (port 0 resolved). */
export function listenerUrl(server: Server, host: string, tls: boolean): string {
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${tls ? 'https' : 'http'}://${shown}:${port}`;
}

export async function listen(server: Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
