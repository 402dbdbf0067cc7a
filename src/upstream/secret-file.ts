import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDirectory, type Logger } from '#common';

/** Where a shared secret came from: the environment, or a file under DATA_DIR (its path). */
export interface ResolvedSecret {
  readonly value: string;
  readonly source: 'env' | 'file';
  readonly path: string;
}

/**
 * The admin token and the revocation-feed token: the environment wins; otherwise the file
 * `$DATA_DIR/<name>` is read, or created on first start with 256 random bits, mode 0600
 * (`wx` so two processes starting at once cannot both write a different token), in a DATA_DIR
 * kept 0700 (private-dir.ts).
 */
export async function resolveSecret(
  dataDir: string,
  name: string,
  fromEnv: string | undefined,
  log?: Logger,
): Promise<ResolvedSecret> {
  const path = join(dataDir, name);
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env', path };
  await ensurePrivateDirectory(dataDir, 'DATA_DIR', log);
  const existing = await readSecretFile(path);
  if (existing !== undefined) return { value: existing, source: 'file', path };
  const value = randomBytes(32).toString('base64url');
  try {
    await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = await readSecretFile(path);
    if (raced !== undefined) return { value: raced, source: 'file', path };
    throw error;
  }
  await chmod(path, 0o600); // the umask may have narrowed the mode; never widened it
  return { value, source: 'file', path };
}

/** The trimmed content of a secret file, or undefined when it does not exist or is empty. */
export async function readSecretFile(path: string): Promise<string | undefined> {
  try {
    const value = (await readFile(path, 'utf8')).trim();
    return value === '' ? undefined : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
