import { readFileSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { type LockHolder, parseHolder } from './dir-lock-holder.ts';

/** A lock file as read: its text, who it names (null when unreadable) and when it was last renewed (mtime). */
export interface LockState {
  text: string;
  holder: LockHolder | null;
  renewedAt: number;
}

/**
 * Creates `file` with `text` unless it exists: of processes racing, exactly one gets it. A reader
 * may find it empty for a moment, before the text is written (isLive takes a fresh unreadable
 * lock as held).
 */
export async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
  } catch (error) {
    // A lock without its text (a full disk) would hold the directory until it ran out.
    await handle.close();
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/**
 * The lock as it is now, or null when there is none. It is opened before its mtime is read: on
 * NFS an open fetches fresh attributes, where a stat by path may answer from a cache a minute old.
 */
export async function readLock(file: string): Promise<LockState | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const renewedAt = (await handle.stat()).mtimeMs;
    const text = await handle.readFile('utf8');
    return { text, holder: parseHolder(text, renewedAt), renewedAt };
  } finally {
    await handle.close();
  }
}

/** Removes the lock if it still holds `text`: one taken over meanwhile belongs to its new holder. */
export async function removeIfHeld(file: string, text: string): Promise<void> {
  if ((await readLock(file))?.text === text) await rm(file, { force: true });
}

/** removeIfHeld for the process's `exit` event, where nothing asynchronous runs. */
export function removeIfHeldSync(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) rmSync(file, { force: true });
  } catch {
    // Gone already, or unreadable: nothing of ours to remove.
  }
}
