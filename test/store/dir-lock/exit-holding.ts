/** Locks the directory given, then ends without releasing it: `exit` calls process.exit, `throw` throws. */
import { lockDirectory } from '../../../src/store/dir-lock.ts';

const [dir = '', how = 'exit'] = process.argv.slice(2);
await lockDirectory(dir);
if (how === 'throw') throw new Error('crashed holding the lock');
process.exit(0);
