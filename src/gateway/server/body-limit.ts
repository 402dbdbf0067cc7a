import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';

export class BodyLimitExceeded extends Error {
  override readonly name = 'BodyLimitExceeded';
}

/**
 * A declared Content-Length over the limit is refused before anything is forwarded. A chunked
 * body cannot be judged up front, so it streams through this counter, which fails the stream
 * the moment the limit is passed (the body is never buffered whole).
 */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

export function needsCounting(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined;
}

export function countingStream(req: IncomingMessage, limit: number, onExceeded: () => void): Transform {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        onExceeded();
        callback(new BodyLimitExceeded(`body over ${limit} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
  // The overflow is answered by `onExceeded` (413); the stream error only stops the upload.
  counter.on('error', () => {
    req.unpipe(counter);
    req.resume();
  });
  req.pipe(counter);
  return counter;
}
