/** A process holding directory locks: locks each directory given, prints `locked`, and releases them when stdin ends. */
import { once } from 'node:events';
import { lockDirectory } from '../../../src/store/dir-lock.ts';

const releases: Array<() => Promise<void>> = [];
for (const dir of process.argv.slice(2)) releases.push(await lockDirectory(dir));
process.stdout.write('locked\n');
process.stdin.resume();
await once(process.stdin, 'end');
for (const release of releases) await release();
