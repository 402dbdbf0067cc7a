import type { Env } from '#common';
import type { HelpText } from './help.ts';
import type { CliIo } from './io.ts';
import { HELP_OPTION, type OptionSpecs } from './options.ts';
import type { CommandOutput } from './print-output.ts';

/** A `tokengate` command: its help, and what runs it once its options are parsed. */
export interface CommandSpec extends HelpText {
  readonly name: string;
  /** true: its arguments go to it unparsed (`admin` parses its own nouns, verbs and options). */
  readonly ownParser?: boolean;
  readonly allowPositionals?: boolean;
  /** Resolves with the exit status. */
  run(input: CommandInput): Promise<number>;
}

export interface CommandInput {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: string[];
  /** The arguments as given (for a command with its own parser). */
  readonly args: readonly string[];
  readonly io: CliIo;
  /** The command's output on stdout (a server's start-up lines go to `io.stdout` directly). */
  readonly output: CommandOutput;
}

const CONFIG_OPTION: OptionSpecs = {
  config: {
    type: 'string',
    short: 'c',
    value: 'FILE',
    help: 'The gateway configuration file (overrides GATEWAY_CONFIG; default config/gateway.yaml).',
  },
};

const LOGS = [
  'LOG_LEVEL',
  'LOG_FORMAT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
];
const GATEWAY_ENV = [
  'GATEWAY_CONFIG',
  'GATEWAY_HOST',
  'GATEWAY_PORT',
  'GATEWAY_WORKERS',
  'UPSTREAM_URL',
  'UPSTREAM_PORT',
  'PUBLIC_URL',
  'TOKEN_AUDIENCE',
  'REVOCATION_FEED_TOKEN',
  'DATA_DIR',
  'METRICS_HOST',
  'METRICS_PORT',
];
const UPSTREAM_ENV = [
  'HOST',
  'UPSTREAM_PORT',
  'ADMIN_HOST',
  'ADMIN_PORT',
  'PUBLIC_URL',
  'TOKEN_AUDIENCE',
  'GATEWAY_PORT',
  'DATA_DIR',
  'ADDRESS_DATA_DIR',
  'DATABASE_URL',
  'DATABASE_TIMEOUT_MS',
  'SIGNING_ALG',
  'KEY_ENCRYPTION_KEY',
  'ADMIN_TOKEN',
  'REVOCATION_FEED_TOKEN',
  'TRUSTED_PROXIES',
  'EMAIL_DNS_SERVERS',
  'EMAIL_DNS_TIMEOUT_MS',
  'UPSTREAM_METRICS_HOST',
  'UPSTREAM_METRICS_PORT',
];

/**
 * The file `--config` names is handed on as GATEWAY_CONFIG: the gateway reads it from there, and
 * so do its reloads. Its cluster workers run the same command line, so they read `--config` too.
 */
function withConfigFile({ values, io }: CommandInput): Env {
  return typeof values['config'] === 'string' ? { ...io.env, GATEWAY_CONFIG: values['config'] } : io.env;
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'start',
    usage: 'tokengate start [--config FILE]',
    summary: 'Run the whole local stack: the upstream, then the gateway once the upstream is ready.',
    description:
      'One process. The first start creates the embedded database, the signing keys, the admin token and the\n' +
      'feed token under DATA_DIR. SIGINT or SIGTERM stops the gateway, then the upstream.',
    options: { ...CONFIG_OPTION, ...HELP_OPTION },
    environment: [...new Set([...UPSTREAM_ENV, ...GATEWAY_ENV]), ...LOGS],
    async run(input) {
      await (await import('./start.ts')).runStart([], { ...input.io, env: withConfigFile(input) });
      return 0;
    },
  },
  {
    name: 'upstream',
    usage: 'tokengate upstream',
    summary: 'Run the upstream alone: token issuer, validation API, admin API and account portal.',
    options: HELP_OPTION,
    environment: [...UPSTREAM_ENV, ...LOGS],
    async run({ io }) {
      await (await import('./upstream.ts')).runUpstream([], io);
      return 0;
    },
  },
  {
    name: 'gateway',
    usage: 'tokengate gateway [--config FILE]',
    summary: 'Run the edge gateway alone (in cluster mode when the file says `workers`).',
    description: 'SIGHUP or an edit of the file reloads it; SIGTERM or SIGINT drains requests in flight and exits 0.',
    options: { ...CONFIG_OPTION, ...HELP_OPTION },
    environment: [...GATEWAY_ENV, ...LOGS],
    async run(input) {
      await (await import('./gateway.ts')).runGateway([], withConfigFile(input));
      return 0;
    },
  },
  {
    name: 'check-config',
    usage: 'tokengate check-config FILE',
    summary: "Validate a gateway configuration file and the upstream's environment without starting anything.",
    description:
      'Prints OK FILE (exit 0) when both are valid; otherwise every problem on stderr, a key path and line for the\n' +
      'file, a variable name for the environment (exit 2, as `tokengate gateway` or `tokengate upstream` would exit).',
    arguments: { FILE: 'the gateway configuration file' },
    allowPositionals: true,
    options: HELP_OPTION,
    environment: [...new Set([...GATEWAY_ENV.filter((name) => name !== 'GATEWAY_CONFIG'), ...UPSTREAM_ENV]), ...LOGS],
    async run({ positionals, io, output }) {
      return (await import('./check-config.ts')).runCheckConfig(positionals, io, output);
    },
  },
  {
    name: 'admin',
    usage: 'tokengate admin <noun> <verb> [args] [--json]',
    summary: 'Operator commands against the admin API (tokengate admin --help lists them).',
    ownParser: true,
    options: HELP_OPTION,
    environment: ['ADMIN_URL', 'ADMIN_PORT', 'ADMIN_TOKEN', 'DATA_DIR', 'ADDRESS_DATA_DIR'],
    async run({ args, io, output }) {
      const { runAdmin } = await import('./admin/index.ts');
      await runAdmin(args, { ...io.env }, (text) => output.print(text), io);
      return 0;
    },
  },
];
