/**
 * The `tokengate` command: start | upstream | gateway | check-config | admin.
 * Every failure ends here: one clear line on stderr and a non-zero exit code, never a stack
 * trace (unexpected errors print their message only; LOG_LEVEL=debug adds the stack).
 */
import { runAdmin } from './admin/index.ts';
import { CliError } from './cli-error.ts';
import { printOutput } from './print-output.ts';

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

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printOutput(USAGE);
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
