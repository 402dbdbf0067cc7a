/**
 * Misuse at start-up (an invalid configuration file) throws this, with one message per problem,
 * each naming the path and line: `routes[3].scopes[0]: unknown scope "adress" (line 27)`.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly file: string;
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    super(`invalid gateway configuration ${file}:\n  ${problems.join('\n  ')}`);
    this.file = file;
    this.problems = problems;
  }
}
