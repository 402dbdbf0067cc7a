import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './http/respond.ts';

/** The stylesheet, the copy-button script and the passkey script: files beside this module, read once at start. */
const FILES = {
  'portal.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'passkey.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export type AssetName = keyof typeof FILES;

export function loadAssets(): (res: ServerResponse, name: string) => boolean {
  const bodies = new Map<string, { type: string; body: Buffer }>();
  for (const [name, type] of Object.entries(FILES)) {
    bodies.set(name, { type, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) });
  }
  return (res, name) => {
    const asset = bodies.get(name);
    if (!asset) return false;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': 'no-cache',
    });
    res.end(asset.body);
    return true;
  };
}
