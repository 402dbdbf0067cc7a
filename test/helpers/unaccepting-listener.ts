import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { until } from './until.ts';

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

// Writes to a pipe are synchronous on Linux: the port is out before the event loop blocks.
const CHILD = `
const server = require('node:net').createServer();
server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;

/** Connections the kernel completes for a listener with backlog 1 that never accepts. */
const QUEUED = 2;

export async function startUnacceptingListener(): Promise<UnacceptingListener> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`listener exited with ${code}`)));
  });
  // Fill the accept queue: once the connects it holds have completed, later connects hang.
  const fillers: Socket[] = [];
  let connected = 0;
  for (let i = 0; i < QUEUED + 2; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('connect', () => connected++);
    fillers.push(socket);
  }
  await until(() => connected >= QUEUED, 'the accept queue is full', { timeoutMs: 5_000 });
  return {
    port,
    close() {
      for (const socket of fillers) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}
