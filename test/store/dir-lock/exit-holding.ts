/**
 * Locks each directory given, then ends without releasing them: `exit` calls process.exit, `throw`
 * throws, `SIGKILL` is killed (as by the out-of-memory killer). Usage: exit-holding.ts HOW DIR...
 */
import { lockDirectory } from '../../../src/store/dir-lock.ts';

const [how = 'exit', ...dirs] = process.argv.slice(2);
for (const dir of dirs) await lockDirectory(dir);
if (how === 'throw') throw new Error('crashed holding the lock');
if (how === 'SIGKILL') process.kill(process.pid, 'SIGKILL');
process.exit(0);
