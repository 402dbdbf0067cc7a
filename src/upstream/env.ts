/**
 * Small readers for environment variables. Each returns the parsed value or records a problem
 * naming the variable, so `loadUpstreamConfig` can report every mistake at once.
 */
export type Env = Readonly<Record<string, string | undefined>>;

export class EnvReader {
  readonly problems: string[] = [];
  readonly env: Env;
  constructor(env: Env) {
    this.env = env;
  }

  /** The trimmed value, or undefined when unset or empty (empty means "use the default"). */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  port(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const port = Number(value);
    if (!/^\d+$/.test(value) || port > 65535) {
      this.problems.push(`${name}: must be a port number 0..65535 (got "${value}")`);
      return fallback;
    }
    return port;
  }

  /** Whole milliseconds within min..max. */
  milliseconds(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const ms = Number(value);
    if (!/^\d+$/.test(value) || ms < min || ms > max) {
      this.problems.push(`${name}: must be a whole number of milliseconds ${min}..${max} (got "${value}")`);
      return fallback;
    }
    return ms;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}: must be one of ${allowed.join(', ')} (got "${value}")`);
      return fallback;
    }
    return value as T;
  }

  /** An absolute http(s) URL without a trailing slash. */
  url(name: string, fallback: string, protocols: readonly string[] = ['http:', 'https:']): string {
    const value = this.raw(name) ?? fallback;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      this.problems.push(`${name}: must be an absolute URL (got "${value}")`);
      return fallback;
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name}: must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
    }
    return value.replace(/\/+$/, '');
  }

  /** A secret: never echoed back in a problem message. */
  secret(name: string, minLength: number): string | undefined {
    const value = this.raw(name);
    if (value !== undefined && value.length < minLength) {
      this.problems.push(`${name}: must be at least ${minLength} characters long`);
    }
    return value;
  }
}
