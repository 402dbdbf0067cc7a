/**
 * A command's output on stdout. A stdout closed before it is written (`… | true`, a reader that
 * quit) fails the write asynchronously: one line on stderr and a non-zero exit rather than Node's
 * stack trace, saying the command itself ran (`client create` made a client whose secret is now
 * lost). An exit code already set (the usage printed for a missing command) is kept.
 */
export function printOutput(text: string): void {
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`tokengate: the command ran, but its output could not be written to stdout (${error.code ?? error.message})\n`);
    process.exitCode ||= 1;
  });
  process.stdout.write(`${text}\n`);
}
