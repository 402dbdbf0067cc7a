/**
 * The `tokengate` process: runs the CLI (cli.ts) with this process's arguments, environment,
 * streams and working directory, and exits with the status it returns.
 */
import { main } from './cli.ts';
import { processIo } from './io.ts';

process.exitCode = await main(process.argv.slice(2), processIo());
