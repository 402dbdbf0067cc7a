import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../src/validation/address/data/prng.ts';
import { sampleDataset } from '../../../src/validation/address/dataset/load.ts';
import { fullAddress, readParts } from '../../../src/validation/address/format/address-parts.ts';
import { addressApi, completionsOf } from './fixtures.ts';

const dataset = sampleDataset({ count: 30_000, seed: 20_240_801 });
const api = addressApi(dataset);
const random = createRandom(99);
const picks = Array.from({ length: 200 }, () =>
  fullAddress(readParts(dataset.table, random.int(0, dataset.table.size - 1))),
);

describe('search over the generated sample', () => {
  it('ranks any address first when its full address is typed (units, levels, Ground, lots, boxes, aliases)', async () => {
    for (const full of picks) {
      expect(completionsOf(await api.autocomplete({ q: full }))[0]?.full_address, full).toBe(full);
    }
  });

  it('verifies any address written in full, and only that address', async () => {
    for (const full of picks) {
      const body = (await api.verification({ q: full })).body as {
        matched: boolean;
        address?: { full_address: string };
      };
      expect(body.address?.full_address, full).toBe(full);
    }
  });

  it('finds an address from its number and the first letters of its street while the user types', async () => {
    const full = picks.find((p) => /^\d+ \w+ Street, /.test(p))!;
    const [number, name] = full.split(' ');
    const typed = `${number} ${name!.slice(0, 3).toLowerCase()}`;
    const completions = completionsOf(await api.autocomplete({ q: typed, max: '100' }));
    expect(completions.map((c) => c.full_address)).toContain(full);
  });
});
