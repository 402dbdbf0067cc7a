import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `reload` on SIGHUP and when the file changes. Editors replace files (rename) rather
 * than write in place, so the directory is watched and events are filtered by name; bursts of
 * events are debounced into one reload.
 */
export function watchConfig(
  file: string,
  reload: () => void,
  options: { files?: boolean; debounceMs?: number } = {},
): () => void {
  const debounceMs = options.debounceMs ?? 200;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  };
  const name = basename(file);
  let watcher: FSWatcher | undefined;
  try {
    if (options.files === false) throw new Error('file watching off');
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed === null || changed === name) schedule();
    });
    watcher.unref();
  } catch {
    watcher = undefined; // off, or no inotify here: SIGHUP still works
  }
  process.on('SIGHUP', reload);
  return () => {
    clearTimeout(timer);
    watcher?.close();
    process.off('SIGHUP', reload);
  };
}
