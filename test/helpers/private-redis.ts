import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './stack.ts';

/**
 * A Redis server of the test's own (`redis-server` on a free loopback port, nothing persisted),
 * which the test may stop, freeze and start again: never the machine's shared one.
 */
export interface PrivateRedis {
  readonly url: string;
  /** Stops the server (SIGTERM); connections to it are refused until start(). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open but nothing is answered (a hung server); thaw() resumes it. */
  freeze(): void;
  thaw(): void;
  dispose(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await untilAnswers(port);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await once(running, 'exit');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    dispose: stop,
  };
}

/** Redis's own bare `PING`: the server is up once it answers `+PONG`. */
async function untilAnswers(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => resolve(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
    });
    if (pong) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on port ${port} did not start`);
}
