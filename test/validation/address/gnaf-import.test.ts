import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAddressRoutes, GnafFormatError, importGnaf } from '../../../src/validation/address/index.ts';
import { silentLog } from './fixtures.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/gnaf');
const STANDARD = 'G-NAF/G-NAF NOVEMBER 2024/Standard';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokengate-address-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function query(
  routes: Awaited<ReturnType<typeof createAddressRoutes>>,
  path: string,
  params: Record<string, string>,
): Promise<unknown> {
  const route = routes.routes.find((r) => r.path === path)!;
  return (await route.handle({ query: new URLSearchParams(params), projectId: 'p', log: silentLog })).body;
}

describe('G-NAF import', () => {
  it('imports the release files and reports a summary', async () => {
    const summary = await importGnaf(FIXTURE, dataDir, { now: () => new Date('2026-11-21T10:00:00Z') });
    expect(summary).toMatchObject({
      addresses: 11,
      aliases: 1,
      withoutCoordinates: 1,
      skippedRetired: 1,
      skippedInvalid: 1,
      files: 15,
      version: 'gnaf-20261121T100000',
    });
    expect((await readFile(join(dataDir, 'address', 'CURRENT'), 'utf8')).trim()).toBe('gnaf-20261121T100000');
  });

  it('serves the imported data set: units, levels, lots, suffixes, aliases, buildings and coordinates', async () => {
    await importGnaf(FIXTURE, dataDir);
    const routes = await createAddressRoutes({ dataDir, log: silentLog });
    const complete = (q: string) => query(routes, '/api/au/address/autocomplete', { q });
    expect(await complete('2/21 kent rd dapto')).toMatchObject({
      completions: [{ full_address: 'Unit 2, 21 Kent Road, DAPTO NSW 2530' }],
    });
    expect(await complete('level 3 25 atchison')).toMatchObject({
      completions: [{ full_address: 'Level 3, 25 Atchison Street, ST LEONARDS NSW 2065' }],
    });
    expect(await complete('lot 12 victoria rd')).toMatchObject({
      completions: [{ full_address: 'Lot 12 Victoria Road, RYDE NSW 2112' }],
    });
    expect(await complete('7a victoria')).toMatchObject({
      completions: [{ full_address: '7A Victoria Road, RYDE NSW 2112' }],
    });
    const verified = await query(routes, '/api/au/address/v2/verification', {
      q: '13 Neville St Ryde NSW 2112',
      gps: '1',
      extended: '1',
    });
    expect(verified).toMatchObject({
      matched: true,
      address: {
        canonical_address: '11-15 Neville Street, RYDE NSW 2112',
        gnaf_id: 'GANSW716000002',
        latitude: '-33.814620',
        longitude: '151.103801',
      },
    });
    const church = await query(routes, '/api/au/address/metadata', { gnaf_id: 'GANSW716000010' });
    expect(church).toMatchObject({
      full_address: '30 Church Street North, RYDE NSW 2112',
      street_suffix: 'North',
      site_name: 'Ryde Police Station',
    });
    const collins = await query(routes, '/api/au/address/metadata', { gnaf_id: 'GAVIC411000003', gps: '1' });
    expect(collins).toMatchObject({
      full_address: '101 Collins Street, MELBOURNE VIC 3000',
      latitude: null,
      longitude: null,
    });
    expect(await query(routes, '/api/au/address/metadata', { gnaf_id: 'GANSW716000008' })).toMatchObject({
      error_code: '1011',
    });
  });

  it('leaves the previous data set live and no temporary files when an import fails', async () => {
    await importGnaf(FIXTURE, dataDir, { now: () => new Date('2026-01-01T00:00:00Z') });
    const broken = await mkdtemp(join(tmpdir(), 'tokengate-gnaf-broken-'));
    try {
      await cp(FIXTURE, broken, { recursive: true });
      const detail = join(broken, STANDARD, 'VIC_ADDRESS_DETAIL_psv.psv');
      await writeFile(detail, 'ADDRESS_DETAIL_PID|DATE_CREATED\nGAVIC1|2020-01-01\n');
      await expect(importGnaf(broken, dataDir)).rejects.toThrow(GnafFormatError);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
    expect(await readdir(join(dataDir, 'address'))).toEqual(['CURRENT', 'gnaf-20260101T000000']);
    const routes = await createAddressRoutes({ dataDir, log: silentLog });
    const body = (await query(routes, '/api/au/address/autocomplete', { q: '12 fitzroy st st kilda' })) as {
      completions: { full_address: string }[];
    };
    expect(body.completions[0]!.full_address).toBe('12 Fitzroy Street, ST KILDA VIC 3182');
  });

  it('refuses a directory that is not a G-NAF release', async () => {
    await expect(importGnaf(dataDir, dataDir)).rejects.toThrow(/no \*_ADDRESS_DETAIL_psv.psv file/);
  });

  it('replaces the previous data set and removes it after a second import', async () => {
    await importGnaf(FIXTURE, dataDir, { now: () => new Date('2026-01-01T00:00:00Z') });
    await importGnaf(FIXTURE, dataDir, { now: () => new Date('2026-02-01T00:00:00Z') });
    expect(await readdir(join(dataDir, 'address'))).toEqual(['CURRENT', 'gnaf-20260201T000000']);
  });
});

describe('address data set at start', () => {
  it('generates the deterministic sample when nothing was imported, and persists its index', async () => {
    const routes = await createAddressRoutes({ dataDir, log: silentLog, sample: { count: 5_000, seed: 11 } });
    const body = (await query(routes, '/api/au/address/autocomplete', { q: 'george st sydney' })) as {
      completions: unknown[];
    };
    expect(body.completions.length).toBeGreaterThan(0);
    expect(await readdir(join(dataDir, 'address'))).toEqual(['sample-11-5000']);
    expect(await readdir(join(dataDir, 'address', 'sample-11-5000'))).toEqual(['index.bin', 'manifest.json']);
  });

  it('switches to an imported data set on reload', async () => {
    const routes = await createAddressRoutes({ dataDir, log: silentLog, sample: { count: 5_000, seed: 11 } });
    await importGnaf(FIXTURE, dataDir);
    await routes.reload();
    expect(await query(routes, '/api/au/address/autocomplete', { q: 'kent rd dapto', max: '100' })).toMatchObject({
      completions: [
        { full_address: 'Unit 1, 21 Kent Road, DAPTO NSW 2530' },
        { full_address: 'Unit 2, 21 Kent Road, DAPTO NSW 2530' },
      ],
    });
  });
});
