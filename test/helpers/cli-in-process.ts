import { Writable } from 'node:stream';
import { main } from '../../src/cli/cli.ts';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `tokengate ARGS` run in this process through the CLI's `main`, with `env` as its whole
 * environment: the exit status and the output the spawned command would give, without
 * starting Node (about half a second each on this machine). Commands that start servers, and
 * the tests about the process itself (signals, a closed stdout), spawn it instead.
 */
export async function runCliInProcess(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): Promise<CliResult> {
  const stdout = collected();
  const stderr = collected();
  const code = await main(args, { env, stdout: stdout.stream, stderr: stderr.stream, cwd });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The commands that start a server: run in-process they would serve inside the test worker. */
export function startsServer(args: readonly string[]): boolean {
  const [command] = args;
  const serves = command === 'gateway' || command === 'upstream' || command === 'start';
  return serves && !args.includes('--help') && !args.includes('-h');
}

function collected(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
