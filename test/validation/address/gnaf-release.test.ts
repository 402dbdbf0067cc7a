import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateNational } from '../../../src/validation/address/data/national.ts';
import type { AddressInput } from '../../../src/validation/address/dataset/address-input.ts';
import { NO_COORDINATE } from '../../../src/validation/address/dataset/columns.ts';
import { loadAddressDataset } from '../../../src/validation/address/dataset/load.ts';
import type { AddressTable } from '../../../src/validation/address/dataset/table.ts';
import { fullAddress, readParts } from '../../../src/validation/address/format/address-parts.ts';
import { importGnaf } from '../../../src/validation/address/gnaf/import.ts';
import { numberColumns } from '../../../src/validation/address/gnaf/release-rows.ts';
import { writeGnafRelease } from '../../../src/validation/address/gnaf/release-writer.ts';
import { silentLog } from './fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tokengate-gnaf-release-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the imported table holds of one address, in the generator's terms. */
function imported(table: AddressTable, row: number): AddressInput {
  const p = readParts(table, row);
  const canonical = table.canonical(row);
  const coordinate = (value: number): number | null => (value === NO_COORDINATE ? null : value / 1e6);
  return {
    gnafPid: table.pidOf(row),
    aliasOfPid: canonical !== row ? table.pidOf(canonical) : null,
    siteName: p.site,
    lot: p.lot,
    flatType: p.flatType,
    flat: p.flat,
    levelType: p.levelType,
    level: p.level,
    numberFirst: p.numberFirst,
    numberLast: p.numberLast,
    streetName: p.streetName,
    streetType: p.streetType,
    streetSuffix: p.streetSuffix,
    boxType: p.boxType,
    boxNumber: p.boxNumber,
    locality: p.locality,
    state: p.state as AddressInput['state'],
    postcode: p.postcode,
    latitude: coordinate(table.rows.latitude[row]!),
    longitude: coordinate(table.rows.longitude[row]!),
    legalParcelId: p.legalParcel,
  };
}

describe('G-NAF release writer', () => {
  it('writes a national data set that the importer reads back as the same addresses', async () => {
    const generated = [...generateNational({ count: 5_000, seed: 7, boxes: false })];
    const written = writeGnafRelease(generated, join(dir, 'release'));
    expect(written).toMatchObject({ addresses: 5_000, skipped: 0 });
    const summary = await importGnaf(join(dir, 'release'), join(dir, 'data'));
    const aliases = generated.filter((a) => a.aliasOfPid !== null).length;
    expect(aliases).toBeGreaterThan(100);
    expect(summary).toMatchObject({ addresses: 5_000, aliases, skippedInvalid: 0, withoutCoordinates: 0 });

    const { table } = await loadAddressDataset({ dataDir: join(dir, 'data'), log: silentLog });
    expect(table.size).toBe(5_000);
    for (const input of generated) expect(imported(table, table.rowByPid(input.gnafPid!))).toEqual(input);
    const unit = generated.find((a) => a.flatType === 'Apartment' && a.levelType === 'Level')!;
    expect(fullAddress(readParts(table, table.rowByPid(unit.gnafPid!)))).toMatch(
      /^Apartment \d+, Level \d+, \d+ [A-Z][a-z]+.*, [A-Z ]+ [A-Z]{2,3} \d{4}$/,
    );
  });

  it('skips post boxes, which G-NAF does not hold, and counts them', async () => {
    const generated = [...generateNational({ count: 5_000, seed: 7 })];
    const boxes = generated.filter((a) => a.boxType !== null).length;
    expect(boxes).toBeGreaterThan(20);
    expect(writeGnafRelease(generated, dir)).toMatchObject({ addresses: 5_000 - boxes, skipped: boxes });
  });

  it('writes the release tables with the columns of the real release', async () => {
    const input = generateNational({ count: 500, seed: 1, boxes: false }).next().value!;
    writeGnafRelease([input], dir, { release: 'FEBRUARY 2024' });
    const standard = join(dir, 'G-NAF', 'G-NAF FEBRUARY 2024', 'Standard');
    const fixture = join(import.meta.dirname, '../../fixtures/gnaf/G-NAF/G-NAF NOVEMBER 2024/Standard');
    for (const table of ['ADDRESS_DETAIL', 'ADDRESS_DEFAULT_GEOCODE', 'STREET_LOCALITY', 'LOCALITY', 'STATE']) {
      const header = async (file: string): Promise<string> => (await readFile(file, 'utf8')).split('\n')[0]!;
      expect(await header(join(standard, `${input.state}_${table}_psv.psv`)), table).toBe(
        await header(join(fixture, `NSW_${table}_psv.psv`)),
      );
    }
  });

  it('splits a number into the prefix, number and suffix columns', () => {
    expect(numberColumns('12A')).toBe('|12|A');
    expect(numberColumns('A5')).toBe('A|5|');
    expect(numberColumns(null)).toBe('||');
    expect(numberColumns('12-14')).toBe('|12-14|');
  });
});
