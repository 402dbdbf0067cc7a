/**
 * An invalid configuration, the gateway's file or a process's environment. It carries every
 * problem found, not just the first, so an operator fixes everything in one pass; each names its
 * path (`routes[3].scopes[0]`, `UPSTREAM_PORT`) and, in a file, its line. Every command answers
 * it with its message and exit status 2, never a stack trace.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];
  /** The configuration file, when the problems are in one. */
  readonly file: string | undefined;

  constructor(problems: readonly string[], file?: string) {
    const subject = file === undefined ? 'configuration' : `gateway configuration ${file}`;
    super(`invalid ${subject}:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
    this.file = file;
  }
}
