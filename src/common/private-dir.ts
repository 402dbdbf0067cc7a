import { chmod, mkdir, stat } from 'node:fs/promises';
import type { Logger } from './logger.ts';

/**
 * Creates `dir` (and any missing parent) mode 0700, and narrows an existing one to 0700. The
 * files beneath need no care of their own: PGlite writes its files 0666, the write-ahead log
 * among them holds the private signing keys (in clear without KEY_ENCRYPTION_KEY), and a
 * directory other users cannot enter keeps them all out. `name` says which in the log line.
 */
export async function ensurePrivateDirectory(dir: string, name: string, log: Logger | undefined): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const mode = (await stat(dir)).mode & 0o7777;
  if ((mode & 0o077) === 0) return;
  const context = { dir, mode: `0${mode.toString(8)}` };
  try {
    await chmod(dir, 0o700);
  } catch (error) {
    // Not ours to change (another owner, a read-only mount): say so rather than refuse to start.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EROFS') throw error;
    log?.warn(
      { ...context, code },
      `${name} is open to other users and could not be narrowed to 0700: its owner should chmod 700 it, so that only this user reaches the admin token and the embedded store's signing keys`,
    );
    return;
  }
  log?.warn(
    context,
    `${name} was open to other users: narrowed to 0700, so that only this user reaches the admin token and the embedded store's signing keys`,
  );
}
