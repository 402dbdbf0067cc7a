import type { CliStream } from './io.ts';

/**
 * A command's output on stdout. A stdout closed before it is written (`… | true`, a reader that
 * quit) fails the write asynchronously: one line on stderr and a non-zero exit rather than Node's
 * stack trace, saying the command itself ran (`client create` made a client whose secret is now
 * lost). `written()` says whether every line got out, once the writes are done.
 */
export interface CommandOutput {
  print(text: string): void;
  written(): Promise<boolean>;
}

export function commandOutput(stdout: CliStream, stderr: CliStream): CommandOutput {
  const writes: Promise<boolean>[] = [];
  let reported = false;
  const failed = (error: NodeJS.ErrnoException): false => {
    if (!reported) {
      reported = true;
      stderr.write(
        `tokengate: the command ran, but its output could not be written to stdout (${error.code ?? error.message})\n`,
      );
    }
    return false;
  };
  return {
    print(text) {
      writes.push(
        new Promise((resolve) => {
          // The stream both calls back and emits 'error'; unheard, the event would be a crash.
          stdout.once('error', (error: Error) => resolve(failed(error)));
          stdout.write(`${text}\n`, (error) => resolve(error ? failed(error) : true));
        }),
      );
    },
    async written() {
      return (await Promise.all(writes)).every(Boolean);
    },
  };
}

/**
 * A server's start-up lines (its URLs) on stdout. A reader that is gone (`npm run upstream | head`,
 * a log shipper that died) must not stop a running service: the failed write would otherwise be
 * an unhandled 'error' event, a stack trace and exit 1 just after start. The lines are lost, as
 * the log lines after them are, and the server keeps serving.
 */
export function printBanner(stdout: CliStream, text: string): void {
  if (!stdout.listeners('error').includes(ignoreWriteError)) stdout.on('error', ignoreWriteError);
  stdout.write(`${text}\n`);
}

function ignoreWriteError(): void {}
