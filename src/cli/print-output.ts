/**
 * A command's output on stdout. A stdout closed before it is written (`… | true`, a reader that
 * quit) fails the write asynchronously: one line on stderr and a non-zero exit rather than Node's
 * stack trace, saying the command itself ran (`client create` made a client whose secret is now
 * lost). An exit code already set (the usage printed for a missing command) is kept.
 */
export function printOutput(text: string): void {
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(
      `tokengate: the command ran, but its output could not be written to stdout (${error.code ?? error.message})\n`,
    );
    process.exitCode ||= 1;
  });
  process.stdout.write(`${text}\n`);
}

/**
 * A server's start-up lines (its URLs) on stdout. A reader that is gone (`npm run upstream | head`,
 * a log shipper that died) must not stop a running service: the failed write would otherwise be
 * an unhandled 'error' event, a stack trace and exit 1 just after start. The lines are lost, as
 * the log lines after them are, and the server keeps serving.
 */
export function printBanner(text: string): void {
  if (!process.stdout.listeners('error').includes(ignoreWriteError)) process.stdout.on('error', ignoreWriteError);
  process.stdout.write(`${text}\n`);
}

function ignoreWriteError(): void {}
