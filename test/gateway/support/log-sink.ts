import { Writable } from 'node:stream';
import { createLogger, type Logger } from '#common';

/** A pino logger whose lines are kept (raw and parsed) for assertions (pino test/helper.js `sink`). */
export interface LogSink {
  readonly log: Logger;
  /** Every line written so far, exactly as serialized. */
  text(): string;
  entries(): Array<Record<string, unknown>>;
}

export function createLogSink(level = 'debug'): LogSink {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return {
    log: createLogger({ level, destination }),
    text: () => lines.join('\n'),
    entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
