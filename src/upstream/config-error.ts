/**
 * Start-up misconfiguration. Carries every problem found (not just the first) so an operator
 * fixes the environment in one pass; each line names the variable.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}
