/**
 * A process racing for directory locks: prints `ready`, reads `<startAt> <gapMs>` from stdin, tries
 * to lock the i-th directory at startAt + i * gapMs, prints one JSON line of outcomes ('won' or
 * the error message), then holds what it won until stdin ends.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { lockDirectory } from '../../../src/store/dir-lock.ts';

const dirs = JSON.parse(process.argv[2] ?? '[]') as string[];
const input = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
const [line] = (await once(input, 'line')) as [string];
const [startAt = 0, gapMs = 0] = line.split(' ').map(Number);
const outcomes: string[] = [];
for (const [round, dir] of dirs.entries()) {
  await delay(startAt + round * gapMs - Date.now());
  outcomes.push(
    await lockDirectory(dir).then(
      () => 'won',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
  );
}
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
await once(input, 'close');
