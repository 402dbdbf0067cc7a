import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/**
 * A TCP port on loopback whose connections never complete: a child process listens with a
 * backlog of one and then blocks its event loop, so it never accepts; once its accept queue holds
 * the connections made here, the kernel drops new SYNs and a client's connect hangs, as towards
 * an upstream that is down or firewalled. Node's own API has no way to stop accepting.
 */
export interface UnacceptingListener {
  readonly port: number;
  close(): void;
}

const CHILD = `
const server = require('node:net').createServer();
server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n');
  setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 50);
});`;

export async function startUnacceptingListener(): Promise<UnacceptingListener> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`listener exited with ${code}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 200)); // its event loop is blocked by now
  // Fill the accept queue (backlog 1 holds up to two): later connects hang.
  const fillers: Socket[] = [];
  for (let i = 0; i < 4; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    port,
    close() {
      for (const socket of fillers) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}
