/**
 * The machine's load around a bench run: this machine is shared, so a figure means little
 * without how busy the machine was while it was taken. The 1-minute load average and how busy
 * all cores were (os.cpus() times) before the run and, slice by slice, during it.
 */
import { cpus, loadavg } from 'node:os';

interface CpuTimes {
  busy: number;
  total: number;
}

function cpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

export interface MachineLoad {
  /** Call once per slice: samples the load average. */
  sample(): void;
  /** `before` and `during` as one line. */
  report(): string;
}

/** Starts watching: measures the second before the run (busy share) and the load average now. */
export async function watchMachine(): Promise<MachineLoad> {
  const idleStart = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const idleEnd = cpuTimes();
  const loadBefore = loadavg()[0] ?? 0;
  const busyBefore = (idleEnd.busy - idleStart.busy) / Math.max(1, idleEnd.total - idleStart.total);
  const during: number[] = [];
  const start = cpuTimes();
  return {
    sample: () => {
      during.push(loadavg()[0] ?? 0);
    },
    report: () => {
      const end = cpuTimes();
      const busy = (end.busy - start.busy) / Math.max(1, end.total - start.total);
      const mean = during.reduce((a, b) => a + b, 0) / Math.max(1, during.length);
      const max = Math.max(0, ...during);
      return (
        `machine load (${cpus().length} cores): before the run, 1-min load average ${loadBefore.toFixed(2)}, ` +
        `cores ${(busyBefore * 100).toFixed(0)} % busy over 1 s; during it, load average mean ${mean.toFixed(2)} ` +
        `(max ${max.toFixed(2)}), cores ${(busy * 100).toFixed(0)} % busy (this bench included)`
      );
    },
  };
}
