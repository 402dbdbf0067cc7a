import { logFormat, prettyOutput } from '#common';
import type { pino } from 'pino';
import { bufferedStdout } from './log-destination.ts';

/**
 * Where a gateway process writes its log: JSON lines through the buffered stdout writer (the
 * access log's measured path, unchanged), or, when LOG_FORMAT or a terminal asks for it,
 * readable lines formatted by pino-pretty in a worker thread, off the request path.
 */
export function gatewayLogOutput(env: Readonly<Record<string, string | undefined>>): {
  destination: pino.DestinationStream;
  flush(): Promise<boolean>;
} {
  return logFormat(env) === 'pretty' ? prettyOutput(env) : bufferedStdout();
}
