import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { type Env, setting } from './config/setting.ts';

/** How log lines are written: `json` lines (for collectors) or `pretty` coloured text (for people). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** A LOG_FORMAT that names neither format: the message to stop on (exit 2), else undefined. */
export function logFormatProblem(env: Env = process.env): string | undefined {
  const set = setting(env, 'LOG_FORMAT');
  if (set === undefined || (LOG_FORMATS as readonly string[]).includes(set)) return undefined;
  return `LOG_FORMAT: must be one of ${LOG_FORMATS.join(', ')} (got "${set}")`;
}

/**
 * `LOG_FORMAT` when it names a format (trimmed, empty means unset); otherwise `pretty` when
 * standard output is a terminal (a person reads it) and `json` when it is a pipe or a file (a
 * collector reads it). A mistyped value falls back the same way: the commands refuse it at start.
 */
export function logFormat(env: Env = process.env, stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  const set = setting(env, 'LOG_FORMAT');
  if (set === 'json' || set === 'pretty') return set;
  return stdout.isTTY === true ? 'pretty' : 'json';
}

/**
 * Colours when standard output is a terminal and NO_COLOR (no-color.org) is unset, or when
 * FORCE_COLOR asks for them. Decided here: the transport's worker thread has no terminal.
 */
export function wantsColour(env: Env = process.env, stdout: { isTTY?: boolean } = process.stdout): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return stdout.isTTY === true && (env['NO_COLOR'] ?? '') === '';
}

/**
 * A pino transport that turns the JSON lines into readable text with pino-pretty, in a worker
 * thread: the formatting (parsing each line again, colours, times) never runs on the thread that
 * serves requests, which only hands the worker the same JSON line it would have written.
 * `flush` waits until the worker has written what it was given.
 */
export function prettyOutput(
  env: Env = process.env,
  stdout: { isTTY?: boolean } = process.stdout,
): { destination: pino.DestinationStream; flush(): Promise<boolean> } {
  const stream = pino.transport({
    // A path, not a name: the worker resolves the name from pino's own folder, not from ours.
    target: fileURLToPath(import.meta.resolve('pino-pretty')),
    options: {
      destination: 1,
      colorize: wantsColour(env, stdout),
      // One line per log line, as the JSON form has: an access-log line stays one line.
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    },
  });
  return {
    destination: stream,
    flush: () =>
      new Promise((resolve) => {
        stream.flush((error) => resolve(error === undefined || error === null));
      }),
  };
}
