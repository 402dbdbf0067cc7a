import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './stack.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL server of the test's own (`initdb` + `pg_ctl`, trust authentication, loopback,
 * a free port), which the test may stop and start again: never the machine's shared one. As
 * root, the server runs as the `postgres` user (initdb refuses root).
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** Stops the server (`pg_ctl stop -m fast`: open connections are ended). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it (if running) and deletes its files. */
  dispose(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'tg-private-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await postgresUser() : undefined;
  if (owner) await chown(dir, owner.uid, owner.gid);
  const command = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  await command('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () =>
    void (await command('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start']));
  const stop = async () => void (await command('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async dispose() {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
