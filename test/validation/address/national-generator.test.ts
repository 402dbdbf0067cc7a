import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateNational } from '../../../src/validation/address/data/national.ts';
import { nationalDataset } from '../../../src/validation/address/data/national-dataset.ts';
import { inPostcodeRange } from '../../../src/validation/address/data/national-shape.ts';
import { type StateCode, STATE_CODES } from '../../../src/validation/address/data/vocabulary.ts';
import type { AddressInput } from '../../../src/validation/address/dataset/address-input.ts';
import { titleCase } from '../../../src/validation/address/dataset/address-input.ts';
import { toTsvLine } from '../../../src/validation/address/dataset/tsv.ts';

function digest(count: number, seed: number): string {
  const hash = createHash('sha256');
  for (const input of generateNational({ count, seed })) hash.update(`${toTsvLine(input)}\n`);
  return hash.digest('hex');
}

const streetKey = (a: AddressInput): string =>
  `${a.streetName}|${a.streetType}|${a.streetSuffix}|${a.locality}|${a.state}|${a.postcode}`;

describe('national address generator', () => {
  it('produces the same addresses for the same seed and different ones for another seed', () => {
    expect(digest(20_000, 7)).toBe(digest(20_000, 7));
    expect(digest(20_000, 7)).not.toBe(digest(20_000, 8));
  });

  it('has the shape of G-NAF scaled to the count: localities, street-localities, units, levels, aliases, boxes', () => {
    const inputs = [...generateNational({ count: 100_000, seed: 3 })];
    const share = (test: (a: AddressInput) => boolean): number => inputs.filter(test).length / inputs.length;
    expect(inputs.length).toBe(100_000);
    // Full size: 16,000 localities and about 790,000 street-localities for 15.6 M addresses.
    expect(new Set(inputs.map((a) => `${a.locality}|${a.state}`)).size).toBeGreaterThan(95);
    expect(new Set(inputs.map((a) => `${a.locality}|${a.state}`)).size).toBeLessThan(112);
    const streets = new Set(inputs.filter((a) => a.streetName).map(streetKey)).size;
    expect(streets).toBeGreaterThan(4_000);
    expect(streets).toBeLessThan(6_500);
    expect(share((a) => a.flat !== null)).toBeGreaterThan(0.15);
    expect(share((a) => a.flat !== null)).toBeLessThan(0.3);
    expect(share((a) => a.levelType !== null)).toBeGreaterThan(0.02);
    expect(share((a) => a.aliasOfPid !== null)).toBeGreaterThan(0.04);
    expect(share((a) => a.aliasOfPid !== null)).toBeLessThan(0.07);
    expect(share((a) => a.lot !== null && a.numberFirst === null)).toBeGreaterThan(0.003);
    expect(share((a) => a.boxType === 'PO Box')).toBeGreaterThan(0.005);
    expect(new Set(inputs.map((a) => a.state))).toEqual(new Set(STATE_CODES));
  });

  it('has a long tail of street sizes: many short streets, a few with hundreds of addresses', () => {
    const sizes = new Map<string, number>();
    for (const a of generateNational({ count: 200_000, seed: 5, boxes: false }))
      sizes.set(streetKey(a), (sizes.get(streetKey(a)) ?? 0) + 1);
    const sorted = [...sizes.values()].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(20);
    expect(sorted.filter((s) => s < 10).length / sorted.length).toBeGreaterThan(0.2);
    expect(sorted.at(-1)).toBeGreaterThan(500);
  });

  it('reuses common street names in many localities and names them as the importer would', () => {
    const localitiesOf = new Map<string, Set<string>>();
    const inputs = [...generateNational({ count: 200_000, seed: 9, boxes: false })];
    for (const a of inputs) {
      const set = localitiesOf.get(a.streetName!) ?? new Set();
      set.add(`${a.locality}|${a.state}`);
      localitiesOf.set(a.streetName!, set);
    }
    expect(localitiesOf.get('George')!.size).toBeGreaterThan(20);
    expect(localitiesOf.size).toBeGreaterThan(5_000);
    expect(inputs.every((a) => titleCase(a.streetName!.toUpperCase()) === a.streetName)).toBe(true);
  });

  it('names localities uniquely within a state, each with a postcode in its state', () => {
    const localities = new Map<string, string>();
    for (const a of generateNational({ count: 300_000, seed: 11, boxes: false }))
      localities.set(`${a.locality}|${a.state}`, a.postcode);
    expect(localities.size).toBeGreaterThan(290);
    for (const [key, postcode] of localities) {
      expect(inPostcodeRange(key.split('|')[1] as StateCode, Number(postcode)), `${key} ${postcode}`).toBe(true);
    }
  });

  it('gives every street address a unique G-NAF-style pid and builds a data set that finds them', () => {
    const dataset = nationalDataset({ count: 20_000, seed: 13 });
    expect(dataset.table.size).toBe(20_000);
    const pid = dataset.table.pidOf(4321)!;
    expect(pid).toMatch(/^GA(NSW|VIC|QLD|SA_|WA_|TAS|NT_|ACT|OT_)\d{9}$/);
    expect(dataset.table.rowByPid(pid)).toBe(4321);
  });
});
