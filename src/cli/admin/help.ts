import { PLANS, SCOPES } from '#common';
import { aligned, EXIT_STATUSES } from '../help.ts';
import type { AdminCommand } from './command.ts';

/** What `tokengate admin <noun> <verb> --help` says beyond the command's usage line. */
export interface AdminHelp {
  readonly summary: string;
  readonly arguments?: Readonly<Record<string, string>>;
  /** Its options (without `--json` and `--help`, which every command takes). */
  readonly options?: Readonly<Record<string, string>>;
}

/**
 * One entry per admin command, keyed `noun verb`. A test checks these keys against the
 * commands that exist: no help for a command that is gone, no command without help.
 */
export const ADMIN_HELP: Readonly<Record<string, AdminHelp>> = {
  'account create': {
    summary: 'Create an account (a customer: it owns projects, and its plan is theirs).',
    options: { '--name NAME': 'its name (1-100 characters)', '--plan PLAN': `one of ${PLANS.join(', ')}` },
  },
  'account plan': {
    summary: 'Change an account’s plan; every project of the account follows it.',
    arguments: { ACCOUNT_ID: 'the account' },
    options: { '--plan PLAN': `one of ${PLANS.join(', ')}` },
  },
  'account disable': {
    summary:
      'Disable an account: its clients get no tokens, their outstanding ones are revoked, its API keys are refused.',
    arguments: { ACCOUNT_ID: 'the account' },
  },
  'account enable': {
    summary: 'Enable an account again (tokens revoked by the disable stay revoked).',
    arguments: { ACCOUNT_ID: 'the account' },
  },
  'account activity': {
    summary:
      'Show the account’s activity log, newest first (at most 500): when, who, what, which id, from which address.',
    arguments: { ACCOUNT_ID: 'the account' },
  },
  'user invite': {
    summary:
      'Create an invitation link into an account (the first owner, or anyone). Shown once, single use, valid 72 hours; pass it on.',
    options: {
      '--account ACCOUNT_ID': 'the account',
      '--email EMAIL': 'the person’s email (their sign-in)',
      '--role ROLE':
        'owner (everything, people too), developer (projects, clients, API keys, tokens) or viewer (read only)',
    },
  },
  'account list': { summary: 'List the accounts, with their plans and states.' },
  'project create': {
    summary: 'Create a project: in the account given, or in a new account of the plan given.',
    options: {
      '--name NAME': 'its name (1-100 characters)',
      '--plan PLAN': `one of ${PLANS.join(', ')}: the project gets a new account of that plan`,
      '--account ACCOUNT_ID': 'the account it belongs to (it takes the account’s plan)',
    },
  },
  'project delete': {
    summary: 'Delete a project. Its tokens are then answered 1025 (deleting does not revoke them).',
    arguments: { PROJECT_ID: 'the project' },
  },
  'project list': { summary: 'List the projects, with their plans.' },
  'project limits': {
    summary:
      "Show a project's rate-limit override, or set or clear it; every gateway applies a change within its policy refresh (500 ms).",
    arguments: { PROJECT_ID: 'the project' },
    options: {
      '--set JSON':
        'the override: {"monthlyQuota": N, "groups": {"GROUP": {"client": {"requests": N, "windowSec": S}, "project": ...}}}; null removes a limit',
      '--clear': 'remove the override: the plan applies again',
    },
  },
  'project usage': {
    summary: "Show a project's calls this month (or another), per UTC day, as the gateways counted them.",
    arguments: { PROJECT_ID: 'the project' },
    options: { '--month YYYY-MM': 'a UTC calendar month (default: this one)' },
  },
  'client create': {
    summary:
      'Create an OAuth client (business and enterprise plans only). A secret client’s secret is shown once; ' +
      'a private_key_jwt client has none and signs its assertions with the private keys of its key set.',
    options: {
      '--project PROJECT_ID': 'the project it belongs to',
      '--name NAME': 'its name (1-100 characters)',
      '--scopes LIST': `comma-separated, from ${SCOPES.join(', ')}`,
      '--auth METHOD': 'client_secret (default) or private_key_jwt',
      '--jwks FILE': 'with private_key_jwt: a JSON file holding the public JWK set {"keys": [...]}',
      '--require-dpop': 'refuse its token requests without a DPoP proof (every token it gets is key-bound)',
    },
  },
  'client keys': {
    summary: 'Replace a private_key_jwt client’s public keys; assertions signed by a removed key are refused at once.',
    arguments: { CLIENT_ID: 'the client' },
    options: { '--jwks FILE': 'a JSON file holding the new public JWK set {"keys": [...]}' },
  },
  'client dpop': {
    summary:
      'Make a client’s token requests need a DPoP proof (every token it gets is then key-bound), or no longer; ' +
      'every replica applies it to the next token request.',
    arguments: { CLIENT_ID: 'the client' },
    options: {
      '--require': 'refuse its token requests without a DPoP proof',
      '--allow': 'accept them again (Bearer tokens); a request with a proof still gets a bound token',
    },
  },
  'client list': {
    summary: 'List the OAuth clients of a project (never a secret).',
    options: { '--project PROJECT_ID': 'the project' },
  },
  'client disable': {
    summary: 'Disable an OAuth client and revoke its outstanding tokens.',
    arguments: { CLIENT_ID: 'the client' },
  },
  'client enable': { summary: 'Enable an OAuth client again.', arguments: { CLIENT_ID: 'the client' } },
  'token revoke': {
    summary: 'Revoke one token; every gateway refuses it within a second.',
    arguments: { JWT_OR_JTI: 'the token itself, or its jti (may start with "-")' },
  },
  'keys list': {
    summary: 'List the signing keys: kid, status, algorithm, when each is removed, and when the next one may sign.',
  },
  'keys rotate': {
    summary:
      'Promote the next signing key to active; the previous one stays published. Refused (409) until the next key ' +
      'has been published for the key set’s max-age.',
    options: {
      '--now':
        'the emergency rotation (a compromised key): the next key signs at once; gateways learn of it through the revocation feed',
    },
  },
  'apikey create': {
    summary: 'Create an API key and secret for key/secret calls. The secret is shown once.',
    options: { '--project PROJECT_ID': 'the project' },
  },
  'apikey disable': {
    summary: 'Disable an API key: its calls are refused (1001, as an unknown key) until it is enabled again.',
    arguments: { KEY: 'the API key (key_…)' },
  },
  'apikey enable': { summary: 'Enable an API key again.', arguments: { KEY: 'the API key (key_…)' } },
  'address import': {
    summary:
      'Import a G-NAF release as the address data set (runs where the upstream runs: writes under ADDRESS_DATA_DIR or DATA_DIR).',
    options: { '--gnaf GNAF_DIR': 'the unpacked G-NAF release' },
  },
};

const COMMON_OPTIONS: readonly (readonly [string, string])[] = [
  ['--json', 'print exactly one JSON value on stdout'],
  ['-h, --help', 'show this help'],
];

const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['ADMIN_URL', 'the admin API (default http://127.0.0.1:$ADMIN_PORT)'],
  ['ADMIN_PORT', 'the admin API port (default 3001)'],
  ['ADMIN_TOKEN', 'the admin token (default: the file $DATA_DIR/admin-token)'],
  ['DATA_DIR', 'where the upstream keeps its data (default ./data)'],
  ['ADDRESS_DATA_DIR', 'where address import writes, when not DATA_DIR (default DATA_DIR)'],
];

function helpOf(command: AdminCommand): AdminHelp {
  return ADMIN_HELP[`${command.noun} ${command.verb}`] ?? { summary: '' };
}

/** `tokengate admin --help`: every command with its usage and one line. */
export function adminOverview(commands: readonly AdminCommand[]): string {
  return [
    'usage: tokengate admin <noun> <verb> [args] [--json]',
    '',
    'Commands (tokengate admin <noun> <verb> --help for one):',
    ...commands.flatMap((c) => [`  ${c.usage}`, `      ${helpOf(c).summary}`]),
    '',
    'Environment:',
    ...aligned(ENVIRONMENT),
    '',
    EXIT_STATUSES,
  ].join('\n');
}

/** `tokengate admin client --help`: the verbs of one noun. */
export function adminNounHelp(noun: string, commands: readonly AdminCommand[]): string {
  const verbs = commands.filter((c) => c.noun === noun);
  return [
    `usage: tokengate admin ${noun} <verb> [args] [--json]`,
    '',
    ...aligned(verbs.map((c): [string, string] => [c.verb, helpOf(c).summary])),
  ].join('\n');
}

/** `tokengate admin client create --help`: its usage, arguments, options and environment. */
export function adminCommandHelp(command: AdminCommand): string {
  const help = helpOf(command);
  const parts = [`usage: tokengate admin ${command.usage}`, '', help.summary];
  const args = Object.entries(help.arguments ?? {});
  if (args.length > 0) parts.push('', 'Arguments:', ...aligned(args));
  parts.push('', 'Options:', ...aligned([...Object.entries(help.options ?? {}), ...COMMON_OPTIONS]));
  parts.push('', 'Environment:', ...aligned(ENVIRONMENT), '', EXIT_STATUSES);
  return parts.join('\n');
}
