import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Runs `src/cli/main.ts` as a real child process on the Node 24 that runs vitest. */
export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `timeoutMs`: SIGTERM after this long, for a command that should fail at once but might start a server instead. */
export function runCli(args: readonly string[], env: Readonly<Record<string, string>>, cwd?: string, timeoutMs?: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, cwd, stdio: 'pipe', timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
