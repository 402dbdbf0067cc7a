import { pino, type DestinationStream, type Logger } from 'pino';
import { type LogFormat, logFormat, prettyOutput } from './log-format.ts';

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

/**
 * Fields of a database error (pg and PGlite) that quote data: `detail` quotes the row or key a
 * statement was refused for ("Failing row contains (...)", a signing key's private JWK included),
 * `where` can quote bound parameters, `internalQuery` the SQL of a function. The code, table,
 * column and constraint stay: they say what failed without the data.
 */
const DATA_QUOTING_ERROR_FIELDS = ['detail', 'where', 'internalQuery'] as const;

/**
 * pino's error serializer without the fields that quote stored data, nested errors included. A
 * thrown value that is not error-like comes back from pino as it is: it is copied without those
 * fields (one level), never changed in place nor walked, since it may well be cyclic.
 */
function errorWithoutData(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.err(error as Error);
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  if (serialized === error) return Array.isArray(error) ? error : withoutDataFields(error as Record<string, unknown>);
  stripDataFields(serialized, Object.getPrototypeOf(serialized) as object);
  return serialized;
}

function withoutDataFields(value: Record<string, unknown>): Record<string, unknown> {
  if (!DATA_QUOTING_ERROR_FIELDS.some((name) => Object.hasOwn(value, name))) return value;
  const copy = { ...value };
  for (const name of DATA_QUOTING_ERROR_FIELDS) delete copy[name];
  return copy;
}

/**
 * Only objects the serializer made (its own prototype, which it never shares with what the error
 * refers to, and it never makes a cycle) are touched; values the error refers to are left as they are.
 */
function stripDataFields(serialized: object, errorProto: object): void {
  const fields = serialized as Record<string, unknown>;
  for (const name of DATA_QUOTING_ERROR_FIELDS) delete fields[name];
  const nested = [...Object.values(fields), ...(Array.isArray(fields.aggregateErrors) ? fields.aggregateErrors : [])];
  for (const value of nested) {
    if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === errorProto)
      stripDataFields(value, errorProto);
  }
}

/** The levels LOG_LEVEL may name (pino's, plus silent). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; defaults to stdout. Tests pass a sink. */
  destination?: DestinationStream;
  /** Without a destination: JSON lines or readable text on stdout (default: LOG_FORMAT, else by terminal). */
  format?: LogFormat;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const config = {
    // LOG_LEVEL as the upstream's configuration reads it: trimmed, empty means the default.
    level: options.level ?? (process.env.LOG_LEVEL?.trim() || 'info'),
    base: options.name ? { name: options.name } : null,
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    serializers: { err: errorWithoutData },
  };
  // The destination is made here, not left to pino, so that destinationOf can name it: pino's
  // own default is the same sonic-boom on stdout that pino.destination(1) makes.
  const destination =
    options.destination ??
    ((options.format ?? logFormat()) === 'pretty' ? prettyOutput().destination : pino.destination(1));
  const log = pino(config, destination);
  destinations.set(log, destination);
  return log;
}

const destinations = new WeakMap<Logger, DestinationStream>();

/**
 * The stream a logger made by createLogger writes to, through which a caller may write lines it
 * built in pino's line format itself (the gateway's access line). Undefined for other loggers.
 */
export function destinationOf(log: Logger): DestinationStream | undefined {
  return destinations.get(log);
}
