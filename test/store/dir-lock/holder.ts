/**
 * A process holding a directory lock: locks the directory given with renewals every `renewMs`
 * (default 20), prints `locked`, and releases it when stdin ends.
 */
import { once } from 'node:events';
import { lockDirectory } from '../../../src/store/dir-lock.ts';

const [dir = '', renewMs = '20'] = process.argv.slice(2);
const release = await lockDirectory(dir, { lease: { renewMs: Number(renewMs), leaseMs: 60_000 } });
process.stdout.write('locked\n');
process.stdin.resume();
await once(process.stdin, 'end');
await release();
