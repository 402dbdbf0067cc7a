import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Data sets live in `$DATA_DIR/address/<name>/`; the file `CURRENT` names the live one.
 * A new data set is written into a temporary directory, renamed into place, and only then
 * does `CURRENT` switch (write-then-rename, atomic on POSIX). A crash or a failed import at
 * any point leaves `CURRENT` naming the previous complete data set.
 */
export function addressDir(dataDir: string): string {
  return join(dataDir, 'address');
}

export async function currentDataset(dataDir: string): Promise<string | null> {
  try {
    const name = (await readFile(join(addressDir(dataDir), 'CURRENT'), 'utf8')).trim();
    return /^[\w.-]+$/.test(name) ? join(addressDir(dataDir), name) : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function installDataset(
  dataDir: string,
  name: string,
  write: (dir: string) => Promise<void>,
): Promise<string> {
  const root = addressDir(dataDir);
  return writeThenRename(root, name, write, async (final) => {
    const previous = await currentDataset(dataDir);
    await writeFile(join(root, 'CURRENT.tmp'), `${name}\n`);
    await rename(join(root, 'CURRENT.tmp'), join(root, 'CURRENT'));
    if (previous && previous !== final) await rm(previous, { recursive: true, force: true });
  });
}

/**
 * Persists the generated sample beside imported data sets (`address/sample-<seed>-<count>/`)
 * without naming it in `CURRENT`: it is what serves only while nothing was imported. A sample
 * directory already there (a bad one being replaced) is removed first; when another process
 * wins the race to write it, its copy stands.
 */
export async function installSample(
  dataDir: string,
  name: string,
  write: (dir: string) => Promise<void>,
): Promise<string> {
  const root = addressDir(dataDir);
  await rm(join(root, name), { recursive: true, force: true });
  return writeThenRename(root, name, write, async () => {});
}

async function writeThenRename(
  root: string,
  name: string,
  write: (dir: string) => Promise<void>,
  after: (final: string) => Promise<void>,
): Promise<string> {
  await mkdir(root, { recursive: true, mode: 0o700 }); // like the rest of DATA_DIR, which this creates when the import comes before the first start
  const temporary = await mkdtemp(join(root, '.tmp-'));
  try {
    await write(temporary);
    const final = join(root, name);
    await rename(temporary, final);
    await after(final);
    return final;
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
