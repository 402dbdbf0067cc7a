import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '#common';

/** Inbound ids are kept only when short and plain, so a client cannot inject into our logs. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Propagates a sane inbound `x-request-id` (the gateway sets one) or makes a new one. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const inbound = req.headers['x-request-id'];
  const id = typeof inbound === 'string' && REQUEST_ID.test(inbound) ? inbound : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * One access-log line per request. The path is logged without its query string: key/secret
 * callers put their secret there. Headers (Authorization) are never logged.
 */
export function logAccess(log: Logger, req: IncomingMessage, res: ServerResponse, id: string): void {
  const started = performance.now();
  res.once('finish', () => {
    log.info(
      {
        reqId: id,
        method: req.method,
        path: (req.url ?? '').split('?', 1)[0]?.slice(0, 256),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
}
