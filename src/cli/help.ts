import { ENVIRONMENT } from './environment.ts';
import type { OptionSpecs } from './options.ts';

/** What `tokengate <command> --help` shows. */
export interface HelpText {
  /** `tokengate gateway [--config FILE]` */
  readonly usage: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs after the usage line. */
  readonly description?: string;
  /** Positional arguments: placeholder → meaning. */
  readonly arguments?: Readonly<Record<string, string>>;
  readonly options: OptionSpecs;
  /** Environment variables it reads (see environment.ts). */
  readonly environment: readonly string[];
}

export const EXIT_STATUSES = `Exit status:
  0  success (a server: stopped by SIGTERM or SIGINT after draining)
  1  the operation failed (the reason is one line on stderr)
  2  wrong usage or invalid configuration (named on stderr)`;

/** The help page of one command: usage, description, arguments, options, environment, exit statuses. */
export function formatHelp(help: HelpText): string {
  const parts = [`usage: ${help.usage}`, '', help.summary];
  if (help.description) parts.push('', help.description);
  const args = Object.entries(help.arguments ?? {});
  if (args.length > 0) parts.push('', 'Arguments:', ...aligned(args));
  const options = Object.entries(help.options).map(([name, spec]): [string, string] => {
    const short = spec.short === undefined ? '    ' : `-${spec.short}, `;
    const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
    return [`${short}--${name}${value}`, spec.help];
  });
  parts.push('', 'Options:', ...aligned(options));
  if (help.environment.length > 0) {
    parts.push(
      '',
      'Environment:',
      ...aligned(help.environment.map((name): [string, string] => [name, ENVIRONMENT[name] ?? ''])),
    );
  }
  parts.push('', EXIT_STATUSES);
  return parts.join('\n');
}

/** Two columns: names padded to the longest. */
export function aligned(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
}
