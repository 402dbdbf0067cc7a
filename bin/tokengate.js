#!/usr/bin/env node
// Launcher for `tokengate` (package.json "bin"). The CLI is TypeScript run by Node 24's type
// stripping; when an older Node starts this file, re-run the CLI with the Node 24 that the
// project pins as a dev dependency (the `node` package), forwarding signals and the exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'src', 'cli', 'main.ts');
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  await import(main);
} else {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`tokengate: needs Node.js 24 or later (this is ${process.version}); run npm ci first\n`);
    process.exit(1);
  }
  const child = spawn(pinned, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
