import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export type LogLine = Record<string, unknown>;

/** A `tokengate gateway` process (run-gateway.ts) and the JSON lines it has written so far. */
export interface GatewayProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  /** Resolves with the matching lines once there are `count` of them. */
  waitFor(predicate: (line: LogLine) => boolean, count?: number): Promise<LogLine[]>;
  readonly exited: Promise<number | null>;
}

export function startGatewayProcess(env: NodeJS.ProcessEnv): GatewayProcess {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'run-gateway.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.startsWith('{')) lines.push(JSON.parse(part) as LogLine);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    async waitFor(predicate, count = 1) {
      for (;;) {
        const found = lines.filter(predicate);
        if (found.length >= count) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
