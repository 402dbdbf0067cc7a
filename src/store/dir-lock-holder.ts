import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { ownStartTime } from './dir-lock-process.ts';

/**
 * Who holds a directory lock, as the lock file says it (one line of JSON, so `cat` tells an
 * operator). A pid alone cannot say: two containers sharing a volume, or two hosts on NFS, each
 * see only their own processes, where the other holder's pid (often 1 in a container) is alive
 * or gone by chance.
 */
export interface LockHolder {
  host: string;
  pid: number;
  /** When the holder took the lock, ISO 8601. */
  since: string;
  /**
   * Linux: boot id and PID namespace. A container run beside us, or restarted, may have our host
   * name (set in compose, or `--network host`) but not our namespace, where its pid means nothing.
   */
  pidNamespace?: string;
  /**
   * Linux: the holder's start time (/proc/<pid>/stat field 22, clock ticks since boot). With the
   * boot id in pidNamespace it tells the holder from a later process given its pid, so a holder
   * paused past its lease (SIGSTOP, a debugger) still holds against its own host.
   */
  startTime?: number;
  /** Read from a lock of an earlier tokengate: a bare pid, no host, never renewed. */
  pidOnly?: true;
}

export function thisProcess(now: number): LockHolder {
  const namespace = ownNamespace();
  // A start time means something only beside the boot id it counts from.
  const startTime = namespace === undefined ? undefined : ownStartTime();
  return {
    host: hostname(),
    pid: process.pid,
    since: new Date(now).toISOString(),
    ...(namespace === undefined ? {} : { pidNamespace: namespace }),
    ...(startTime === undefined ? {} : { startTime }),
  };
}

/** Whether the holder's pid can be looked up here. An old pid-only lock is taken as ours, as it always was. */
export function sharesOurPids(holder: LockHolder): boolean {
  return holder.pidOnly === true || (holder.host === hostname() && holder.pidNamespace === ownNamespace());
}

export function formatHolder(holder: LockHolder): string {
  return `${JSON.stringify(holder)}\n`;
}

/** null: not a lock this code or an earlier one wrote (a write cut short, a stray edit). */
export function parseHolder(text: string, writtenAt: number): LockHolder | null {
  const trimmed = text.trim();
  if (/^[1-9]\d*$/.test(trimmed)) {
    return { host: hostname(), pid: Number(trimmed), since: new Date(writtenAt).toISOString(), pidOnly: true };
  }
  try {
    return asHolder(JSON.parse(trimmed));
  } catch {
    return null;
  }
}

/** A lock written before start times were recorded has none: it is read so, and judged as before. */
function asHolder(value: unknown): LockHolder | null {
  const { host, pid, since, pidNamespace, startTime } = (value ?? {}) as Record<string, unknown>;
  if (typeof host !== 'string' || typeof since !== 'string' || typeof pid !== 'number') return null;
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (pidNamespace !== undefined && typeof pidNamespace !== 'string') return null;
  if (startTime !== undefined && !(Number.isSafeInteger(startTime) && (startTime as number) >= 0)) return null;
  return {
    host,
    pid,
    since,
    ...(pidNamespace === undefined ? {} : { pidNamespace }),
    ...(startTime === undefined ? {} : { startTime: startTime as number }),
  };
}

let namespace: { value: string | undefined } | undefined;

function ownNamespace(): string | undefined {
  namespace ??= { value: readNamespace() };
  return namespace.value;
}

function readNamespace(): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    // Not Linux: no containers sharing a host name there, the host name tells holders apart.
    return undefined;
  }
}
