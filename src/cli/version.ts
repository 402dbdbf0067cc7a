import { readFileSync } from 'node:fs';

/** `tokengate 0.1.0 (Node.js v24.21.0)`: the package's version, and the Node that runs it. */
export function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return `tokengate ${pkg.version ?? 'unknown'} (Node.js ${process.version})`;
}
