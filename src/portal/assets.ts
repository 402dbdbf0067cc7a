import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './http/respond.ts';

/** The stylesheet, the copy-button script and the passkey script: files beside this module, read once at start. */
const FILES = {
  'portal.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'passkey.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export type AssetName = keyof typeof FILES;

interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** The first 16 characters of the body's SHA-256, base64url: the `v` of its URL and its ETag. */
  readonly version: string;
}

const ASSETS = new Map<string, Asset>(
  Object.entries(FILES).map(([name, type]) => {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    return [name, { type, body, version }];
  }),
);

/**
 * An asset's URL below a mount, naming its content's version: pages link to it, so a browser keeps
 * the file until it changes (`immutable`) instead of asking again on every page.
 */
export function assetPath(name: AssetName): string {
  return `assets/${name}?v=${(ASSETS.get(name) as Asset).version}`;
}

/** Serves an asset; false for a name that is none. A URL without the current version is revalidated each time. */
export function sendAsset(req: IncomingMessage, res: ServerResponse, name: string): boolean {
  const asset = ASSETS.get(name);
  if (!asset) return false;
  const etag = `"${asset.version}"`;
  const query = req.url?.indexOf('?') ?? -1;
  const versioned = query !== -1 && new URLSearchParams(req.url?.slice(query + 1)).get('v') === asset.version;
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    etag,
    'cache-control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (matches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers).end();
    return true;
  }
  res.writeHead(200, { ...headers, 'content-length': asset.body.length });
  res.end(asset.body);
  return true;
}

/** RFC 9110 §13.1.2: `*`, or any listed tag equal to ours by the weak comparison. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
