/**
 * `npm run bench`: runs every bench/*.bench.ts in turn, each printing its own side-by-side
 * figures and ratios (measured in one run: this machine is shared and noisy).
 * `npm run bench -- gateway` runs only the benches whose file name contains "gateway", or the one
 * named exactly so when there is one (`address` is not also `address-quality`).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const filter = process.argv[2];
const dir = import.meta.dirname;
const all = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort();
// An exact name runs that bench alone: "address" is not also "address-quality".
const files = all.includes(`${filter}.bench.ts`)
  ? [`${filter}.bench.ts`]
  : all.filter((f) => !filter || f.includes(filter));
for (const file of files) {
  console.log(`\n=== ${file}`);
  const mod = (await import(join(dir, file))) as { default: () => Promise<void> };
  await mod.default();
}
