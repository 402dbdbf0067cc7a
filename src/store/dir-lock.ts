import { open, readFile, rm } from 'node:fs/promises';

/**
 * PGlite is single-user: two processes (or two stores in one process) on one directory would
 * corrupt it. A lock file beside it (`<dir>.lock`) holding the owner's pid guards it; a lock left by a process that is
 * gone (crash, container restart) is taken over.
 */
const heldHere = new Set<string>();

export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  if (heldHere.has(dir)) throw new Error(`embedded store already open in this process: ${dir}`);
  heldHere.add(dir);
  const file = `${dir}.lock`;
  try {
    await takeLock(file);
  } catch (error) {
    heldHere.delete(dir);
    throw error;
  }
  return async () => {
    await rm(file, { force: true });
    heldHere.delete(dir);
  };
}

async function takeLock(file: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (isOtherLiveProcess(owner)) throw new Error(`embedded store in use by process ${owner}: ${file}`);
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock embedded store: ${file}`);
}

/** Our own pid in the file is a leftover of an earlier life of this pid (heldHere says so). */
function isOtherLiveProcess(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
