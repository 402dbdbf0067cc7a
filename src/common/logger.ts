import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Paths pino censors before a line is written. Tokens and secrets must never reach a log:
 * a test writes real ones through this logger and asserts they are absent.
 */
export const REDACT_PATHS = [
  'authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'access_token',
  'token',
  'client_secret',
  'secret',
  'password',
  '*.access_token',
  '*.token',
  '*.client_secret',
  '*.secret',
  '*.authorization',
] as const;

/** The levels LOG_LEVEL may name (pino's, plus silent). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; defaults to stdout. Tests pass a sink. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const config = {
    // LOG_LEVEL as the upstream's configuration reads it: trimmed, empty means the default.
    level: options.level ?? (process.env.LOG_LEVEL?.trim() || 'info'),
    base: options.name ? { name: options.name } : null,
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
