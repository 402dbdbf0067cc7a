import { readFileSync } from 'node:fs';

/**
 * What this host says of a pid. `startTime` (Linux only: /proc/<pid>/stat field 22, clock ticks
 * since boot) tells the process that took a lock from a later one given its pid; undefined where
 * /proc cannot tell (another OS, or hidepid hiding other users' processes).
 */
export type ProcessLookup = { running: false } | { running: true; startTime: number | undefined };

export function lookUpProcess(pid: number): ProcessLookup {
  const stat = readStat(String(pid));
  if (stat !== undefined) return stat.exited ? { running: false } : { running: true, startTime: stat.startTime };
  return isSignalable(pid) ? { running: true, startTime: undefined } : { running: false };
}

let own: { value: number | undefined } | undefined;

export function ownStartTime(): number | undefined {
  own ??= { value: readStat('self')?.startTime };
  return own.value;
}

interface Stat {
  /** A zombie (killed, not yet reaped by its parent) still answers kill(pid, 0), but holds nothing. */
  exited: boolean;
  startTime: number;
}

function readStat(pid: string): Stat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The command name (field 2) is in parentheses and may hold spaces and `)`: fields are counted after the last `)`. */
export function parseStat(text: string): Stat | undefined {
  const end = text.lastIndexOf(')');
  if (end < 0) return undefined;
  // fields[0] is field 3, the state.
  const fields = text.slice(end + 2).split(' ');
  const [state] = fields;
  const startTime = fields[22 - 3];
  if (state === undefined || startTime === undefined || !/^\d+$/.test(startTime)) return undefined;
  return { exited: state === 'Z' || state === 'X' || state === 'x', startTime: Number(startTime) };
}

function isSignalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
