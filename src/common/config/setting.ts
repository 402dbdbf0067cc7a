/** A process's environment, as `process.env` holds it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A variable's text as every tokengate process reads it: trimmed, and empty means unset (so
 * `UPSTREAM_PORT=` takes the default, and a stray space never becomes part of a URL). Kept apart
 * from the schemas of variables (environment.ts) so that a reader loads nothing else.
 */
export function unsetIfBlank(text: string | undefined): string | undefined {
  return text?.trim() || undefined;
}

/** The variable `name` of `env`, read as every tokengate process reads it (`unsetIfBlank`). */
export function setting(env: Env, name: string): string | undefined {
  return unsetIfBlank(env[name]);
}
