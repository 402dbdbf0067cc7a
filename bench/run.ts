/**
 * `npm run bench`: runs every bench/*.bench.ts in turn, each printing its own side-by-side
 * figures and ratios (measured in one run: this machine is shared and noisy).
 * `npm run bench -- gateway` runs only the benches whose file name contains "gateway".
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const filter = process.argv[2];
const dir = import.meta.dirname;
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter))).sort();
for (const file of files) {
  console.log(`\n=== ${file}`);
  const mod = (await import(join(dir, file))) as { default: () => Promise<void> };
  await mod.default();
}
