import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLE, generateSample } from '../../../src/validation/address/data/generate.ts';
import { LOCALITIES } from '../../../src/validation/address/data/localities.ts';
import { sampleDataset } from '../../../src/validation/address/dataset/load.ts';
import { toTsvLine } from '../../../src/validation/address/dataset/tsv.ts';

function digest(count: number, seed: number): string {
  const hash = createHash('sha256');
  for (const input of generateSample({ count, seed })) hash.update(`${toTsvLine(input)}\n`);
  return hash.digest('hex');
}

describe('sample address generator', () => {
  it('produces the same addresses for the same seed and different ones for another seed', () => {
    expect(digest(20_000, 7)).toBe(digest(20_000, 7));
    expect(digest(20_000, 7)).not.toBe(digest(20_000, 8));
  });

  it('ships at least 100,000 addresses by default, exactly as many as asked', () => {
    expect(DEFAULT_SAMPLE.count).toBeGreaterThanOrEqual(100_000);
    let count = 0;
    for (const _ of generateSample({ count: 12_345, seed: 1 })) count++;
    expect(count).toBe(12_345);
  });

  it('holds houses, units, levels, shops, lots, ranges with aliases, sites and post boxes in real localities', () => {
    const inputs = [...generateSample({ count: 50_000, seed: DEFAULT_SAMPLE.seed })];
    const real = new Set(LOCALITIES.map((l) => `${l.name}|${l.state}|${l.postcode}`));
    const kinds = {
      unit: inputs.some((a) => a.flatType === 'Unit'),
      shop: inputs.some((a) => a.flatType === 'Shop'),
      level: inputs.some((a) => a.levelType === 'Level' && a.level !== null),
      lot: inputs.some((a) => a.lot !== null && a.numberFirst === null),
      range: inputs.some((a) => a.numberLast !== null),
      alias: inputs.some((a) => a.aliasOfPid !== null),
      site: inputs.some((a) => a.siteName !== null),
      poBox: inputs.some((a) => a.boxType === 'PO Box'),
      gpoBox: inputs.some((a) => a.boxType === 'GPO Box'),
    };
    expect(Object.values(kinds).every(Boolean)).toBe(true);
    const streetAddresses = inputs.filter((a) => a.boxType === null);
    expect(streetAddresses.every((a) => real.has(`${a.locality}|${a.state}|${a.postcode}`))).toBe(true);
    expect(new Set(inputs.map((a) => a.state))).toEqual(
      new Set(['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'OT']),
    );
  });

  it('gives every street address a unique G-NAF-style pid', () => {
    const pids = [...generateSample({ count: 20_000, seed: 3 })].flatMap((a) => (a.gnafPid ? [a.gnafPid] : []));
    expect(new Set(pids).size).toBe(pids.length);
    expect(pids.every((p) => /^GA(NSW|VIC|QLD|SA_|WA_|TAS|NT_|ACT|OT_)\d{9}$/.test(p))).toBe(true);
  });

  it('builds a searchable data set whose ids and pids round-trip', () => {
    const dataset = sampleDataset({ count: 20_000, seed: 5 });
    expect(dataset.table.size).toBe(20_000);
    const pid = dataset.table.pidOf(1234)!;
    expect(dataset.table.rowByPid(pid)).toBe(1234);
  });
});
