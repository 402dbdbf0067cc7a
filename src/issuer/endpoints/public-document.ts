import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_MAX_AGE_SEC } from '../limits.ts';

export interface PublicDocument {
  readonly body: string;
  readonly etag: string;
  readonly contentType: string;
}

const CACHE_CONTROL = `public, max-age=${PUBLIC_MAX_AGE_SEC}`;

/** Does `If-None-Match` name this strong ETag (or `*`)? Weak validators compare by opaque tag. */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Serves a public, cacheable JSON document (key set, metadata) from memory: GET and HEAD only
 * (405 with `Allow` otherwise), strong ETag, 304 on a matching `If-None-Match`.
 */
export function servePublicDocument(req: IncomingMessage, res: ServerResponse, doc: PublicDocument): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    const body = JSON.stringify({ error: 'invalid_request', error_description: 'method not allowed; use GET' });
    res.writeHead(405, {
      allow: 'GET, HEAD',
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  const headers = { etag: doc.etag, 'cache-control': CACHE_CONTROL, 'access-control-allow-origin': '*' };
  if (notModified(req.headers['if-none-match'], doc.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': doc.contentType, 'content-length': Buffer.byteLength(doc.body) });
  res.end(req.method === 'HEAD' ? undefined : doc.body);
}
