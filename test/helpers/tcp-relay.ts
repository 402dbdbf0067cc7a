import { connect, createServer, type Socket } from 'node:net';

/** A loopback TCP relay in front of a real server; frozen, it passes nothing either way (a stalled network). */
export interface TcpRelay {
  readonly port: number;
  freeze(): void;
  thaw(): void;
  /** Stops listening and cuts every relayed connection. */
  close(): Promise<void>;
}

/** Bytes sent while frozen are dropped, as a black-holed network would: no reply ever comes to them. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no TCP address');
  return {
    port: address.port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
