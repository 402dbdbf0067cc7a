/**
 * The `tokengate` command: start | upstream | gateway | check-config | admin.
 * Every failure ends here: one clear line on stderr and a non-zero exit code, never a stack
 * trace (unexpected errors print their message only; LOG_LEVEL=debug adds the stack).
 */
import { runAdmin } from './admin/index.ts';
import { CliError } from './cli-error.ts';

const USAGE = `usage: tokengate <command>

  start                 the whole local stack: upstream, then the gateway once it is ready
  upstream              the upstream alone (issuer, validation API, admin API)
  gateway               the edge gateway alone (GATEWAY_CONFIG, UPSTREAM_URL)
  check-config FILE     validate a gateway configuration file
  admin <noun> <verb>   operator commands (tokengate admin --help)`;

type Command = (args: string[]) => Promise<void>;

const COMMANDS: Readonly<Record<string, Command>> = {
  admin: (args) => runAdmin(args, process.env, printOutput),
  start: async (args) => (await import('./start.ts')).runStart(args),
  upstream: async (args) => (await import('./upstream.ts')).runUpstream(args),
  gateway: async (args) => (await import('./gateway.ts')).runGateway(args),
  'check-config': async (args) => (await import('./check-config.ts')).runCheckConfig(args),
};

/**
 * An admin command's output. A stdout closed before it is written (`… | true`, a reader that
 * quit) fails the write asynchronously: one line on stderr and exit 1 rather than Node's stack
 * trace, saying the command itself ran (`client create` made a client whose secret is now lost).
 */
function printOutput(text: string): void {
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`tokengate: the command ran, but its output could not be written to stdout (${error.code ?? error.message})\n`);
    process.exitCode = 1;
  });
  process.stdout.write(`${text}\n`);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    if (name === undefined) process.exitCode = 2;
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new CliError(`unknown command "${name}"\n\n${USAGE}`, 2);
  await command(args);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`tokengate: ${message}\n`);
  if (!(error instanceof CliError) && process.env['LOG_LEVEL'] === 'debug' && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
}
