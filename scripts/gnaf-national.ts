/**
 * Writes a national-shape data set (src/validation/address/data/national.ts) as a G-NAF
 * release of pipe-separated files, for measuring `tokengate admin address import` at full size:
 *
 *   node scripts/gnaf-national.ts --out /tmp/gnaf-national                  15.6 M addresses
 *   node scripts/gnaf-national.ts --count 1000000 --seed 7 --out DIR       1 M, another seed
 *
 * Post boxes are left out (G-NAF holds none), so the files hold exactly `--count` addresses.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_NATIONAL, generateNational } from '../src/validation/address/data/national.ts';
import { writeGnafRelease } from '../src/validation/address/gnaf/release-writer.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: String(DEFAULT_NATIONAL.count) },
    seed: { type: 'string', default: String(DEFAULT_NATIONAL.seed) },
    out: { type: 'string' },
    release: { type: 'string', default: 'SYNTHETIC' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
if (!values.out || !Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write('usage: node scripts/gnaf-national.ts --out DIR [--count N] [--seed N] [--release NAME]\n');
  process.exit(2);
}

const started = performance.now();
const summary = writeGnafRelease(generateNational({ count, seed, boxes: false }), values.out, {
  release: values.release,
  onProgress: (n) => {
    if (n % 1_000_000 === 0) process.stderr.write(`\r${n.toLocaleString('en-AU')} of ${count.toLocaleString('en-AU')}`);
  },
});
const seconds = (performance.now() - started) / 1000;
const byTable = new Map<string, number>();
for (const [path, bytes] of summary.files) {
  const table = basename(path)
    .replace(/_psv\.psv$/, '')
    .replace(/^[A-Z]{2,3}_/, '')
    .replace(/^Authority_Code_.*/, 'Authority_Code_*');
  byTable.set(table, (byTable.get(table) ?? 0) + bytes);
}
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const total = [...byTable.values()].reduce((sum, b) => sum + b, 0);
process.stderr.write('\n');
process.stdout.write(
  `wrote ${summary.addresses.toLocaleString('en-AU')} addresses (${summary.aliases.toLocaleString('en-AU')} aliases) ` +
    `in ${summary.localities.toLocaleString('en-AU')} localities and ` +
    `${summary.streetLocalities.toLocaleString('en-AU')} street-localities, ${mb(total)} in ${summary.files.size} files, ` +
    `in ${seconds.toFixed(1)} s\n` +
    [...byTable].map(([table, bytes]) => `  ${table.padEnd(26)} ${mb(bytes).padStart(10)}`).join('\n') +
    '\n',
);
