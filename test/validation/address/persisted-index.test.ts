import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { INDEX_FILE } from '../../../src/validation/address/dataset/index-file.ts';
import { readIndex } from '../../../src/validation/address/dataset/index-reader.ts';
import { installDataset, installSample } from '../../../src/validation/address/dataset/install.ts';
import {
  type AddressDataset,
  datasetFromTable,
  sampleDataset,
  writeDataset,
} from '../../../src/validation/address/dataset/load.ts';
import { createAddressRoutes } from '../../../src/validation/address/index.ts';
import { address, addressApi, datasetOf, knownAddresses } from './fixtures.ts';

const SAMPLE = { count: 4_000, seed: 11 };
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokengate-index-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A logger whose lines the test reads. */
function capturingLog(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  return { log, lines };
}

async function reopened(dataset: AddressDataset): Promise<AddressDataset> {
  const dir = await mkdtemp(join(dataDir, 'write-'));
  await writeDataset(dir, dataset);
  const { identity, table, index } = await readIndex(join(dir, INDEX_FILE));
  return datasetFromTable(table, identity.version, identity.source, index);
}

const QUERIES = [
  '14 smith st ryde',
  '2/14 smith',
  'unit 1 14 smith street',
  '13 neville st ryde nsw 2112',
  'level 3 25 atchison',
  'lot 12 kent',
  'po box 12 ryde',
  'gpo box 1500',
  'george st',
  'ground 8 george',
  'smiht st',
  '2112',
];

describe('persisted address index', () => {
  it('answers exactly as the data set it was written from', async () => {
    for (const built of [datasetOf(knownAddresses()), sampleDataset(SAMPLE)]) {
      const opened = await reopened(built);
      const [before, after] = [addressApi(built), addressApi(opened)];
      const queries = [...QUERIES, ...Array.from({ length: 40 }, (_v, i) => fullOf(built, i * 97))];
      for (const q of queries) {
        expect((await after.autocomplete({ q, max: '10' })).body).toEqual(
          (await before.autocomplete({ q, max: '10' })).body,
        );
        expect((await after.verification({ q })).body).toEqual((await before.verification({ q })).body);
      }
      const id = ((await before.autocomplete({ q: queries[0]! })).body as { completions: { id: string }[] })
        .completions[0]?.id;
      if (id) expect((await after.metadata({ id })).body).toEqual((await before.metadata({ id })).body);
      expect(opened.table.pidOf(3)).toBe(built.table.pidOf(3));
      expect(opened.table.rowByPid(built.table.pidOf(5)!)).toBe(5);
    }
  });

  it('keeps G-NAF pids that do not fit prefix and number, and aliases', async () => {
    const odd = address('Quirk Lane', 'RYDE', 'NSW', '2112', { numberFirst: '1', gnafPid: 'odd-pid-1' });
    const opened = await reopened(datasetOf([...knownAddresses(), odd]));
    const row = opened.table.rowByPid('odd-pid-1');
    expect(row).toBeGreaterThanOrEqual(0);
    expect(opened.table.pidOf(row)).toBe('odd-pid-1');
    const aliases = Array.from({ length: opened.table.size }, (_v, r) => r).filter(
      (r) => opened.table.canonical(r) !== r,
    );
    expect(aliases.length).toBeGreaterThan(0);
    for (const alias of aliases) {
      const principal = opened.table.canonical(alias);
      expect(opened.table.rowByPid(opened.table.pidOf(alias)!)).toBe(alias);
      expect(opened.table.rowByPid(opened.table.pidOf(principal)!)).toBe(principal);
    }
  });

  it('persists the sample on first start and opens it at the next without generating it', async () => {
    const first = capturingLog();
    await createAddressRoutes({ dataDir, log: first.log, sample: SAMPLE });
    expect(first.lines.find((l) => l['msg'] === 'address data set loaded')).toMatchObject({ from: 'generated' });
    const file = join(dataDir, 'address', 'sample-11-4000', INDEX_FILE);
    expect((await stat(file)).size).toBeGreaterThan(0);
    const second = capturingLog();
    await createAddressRoutes({ dataDir, log: second.log, sample: SAMPLE });
    expect(second.lines.find((l) => l['msg'] === 'address data set loaded')).toMatchObject({
      from: 'index',
      addresses: 4_000,
    });
  });

  it('serves an index from a fresh process without rebuilding it', async () => {
    // The sample's directory holds an index of other addresses: only reading it can find them.
    const made = address('Zyzzyva Road', 'RYDE', 'NSW', '2112', { numberFirst: '77' });
    const fixture = datasetOf([...knownAddresses(), made], 'sample-11-4000');
    await installSample(dataDir, 'sample-11-4000', (dir) => writeDataset(dir, fixture));
    const script = `
      import { createAddressRoutes } from './src/validation/address/index.ts';
      import { createLogger } from './src/common/index.ts';
      const routes = await createAddressRoutes({ dataDir: process.argv[1], log: createLogger({ level: 'info' }), sample: { count: 4000, seed: 11 } });
      const route = routes.routes.find((r) => r.path.endsWith('/autocomplete'));
      const answer = await route.handle({ query: new URLSearchParams({ q: '77 zyzzyva' }), projectId: 'p', log: createLogger({ level: 'silent' }) });
      console.log(JSON.stringify(answer.body));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dataDir], {
      cwd: join(import.meta.dirname, '../../..'),
    });
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines.find((l) => l.includes('address data set loaded'))!)).toMatchObject({ from: 'index' });
    expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({
      completions: [{ full_address: '77 Zyzzyva Road, RYDE NSW 2112' }],
    });
  });
});

describe('a bad index is refused and the previous data set stays live', () => {
  const damage: Record<string, (file: string) => Promise<void>> = {
    truncated: async (file) => truncate(file, (await stat(file)).size - 1000),
    corrupt: async (file) => {
      const bytes = await readFile(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      await writeFile(file, bytes);
    },
    'of another format': async (file) => {
      const bytes = await readFile(file);
      bytes.writeUInt32LE(99, 8);
      await writeFile(file, bytes);
    },
    'of another layout': async (file) => rewriteDirectory(file, (d) => d.replace('"rows.latitude"', '"rows.lat"')),
    'not an index': async (file) => writeFile(file, 'addresses, honest\n'.repeat(10)),
  };
  const reasons: Record<string, RegExp> = {
    truncated: /truncated/,
    corrupt: /checksum mismatch/,
    'of another format': /index format 99, this tokengate reads format 1/,
    'of another layout': /another version of tokengate.*rows\.lat.*missing sections: rows\.latitude/,
    'not an index': /not a tokengate address index/,
  };

  for (const [kind, spoil] of Object.entries(damage)) {
    it(`an index ${kind}`, async () => {
      const live = datasetOf(knownAddresses(), 'gnaf-live');
      await installDataset(dataDir, 'gnaf-live', (dir) => writeDataset(dir, { ...live, source: 'gnaf' }));
      const { log, lines } = capturingLog();
      const routes = await createAddressRoutes({ dataDir, log });
      const next = datasetOf([address('Other Street', 'RYDE', 'NSW', '2112', { numberFirst: '1' })], 'gnaf-next');
      const installed = await installDataset(dataDir, 'gnaf-next', (dir) =>
        writeDataset(dir, { ...next, source: 'gnaf' }),
      );
      await spoil(join(installed, INDEX_FILE));
      await expect(routes.reload()).rejects.toThrow(reasons[kind]!);
      expect(lines.find((l) => l['level'] === 50)).toMatchObject({
        msg: 'address data set refused: the previous data set stays live',
        version: 'gnaf-live',
        reason: expect.stringMatching(reasons[kind]!),
      });
      expect(routes.dataset().version).toBe('gnaf-live');
      await expect(createAddressRoutes({ dataDir, log })).rejects.toThrow(reasons[kind]!);
    });
  }

  it('an index of another data set', async () => {
    const other = datasetOf(knownAddresses(), 'gnaf-other');
    const installed = await installDataset(dataDir, 'gnaf-mine', (dir) =>
      writeDataset(dir, { ...other, source: 'gnaf' }),
    );
    const manifest = JSON.parse(await readFile(join(installed, 'manifest.json'), 'utf8'));
    await writeFile(join(installed, 'manifest.json'), JSON.stringify({ ...manifest, version: 'gnaf-mine' }));
    await expect(createAddressRoutes({ dataDir, log: capturingLog().log })).rejects.toThrow(
      /belongs to data set gnaf-other, not gnaf-mine/,
    );
  });

  it('a bad sample index is replaced by a generated sample', async () => {
    await createAddressRoutes({ dataDir, log: capturingLog().log, sample: SAMPLE });
    const file = join(dataDir, 'address', 'sample-11-4000', INDEX_FILE);
    await truncate(file, 100);
    const { log, lines } = capturingLog();
    const routes = await createAddressRoutes({ dataDir, log, sample: SAMPLE });
    expect(lines.find((l) => l['level'] === 40)).toMatchObject({
      msg: 'address sample index refused: generating the sample again',
    });
    expect(routes.dataset().version).toBe('sample-11-4000');
    expect((await readIndex(file)).identity.count).toBe(4_000);
    expect(await readdir(join(dataDir, 'address'))).toEqual(['sample-11-4000']);
  });
});

function fullOf(dataset: AddressDataset, row: number): string {
  const t = dataset.table;
  const g = t.groupOf(row % t.size);
  return `${t.pool.get(t.rows.strings.numberFirst[row % t.size]!) ?? ''} ${t.pool.get(t.groups.streetName[g]!) ?? ''} ${t.pool.get(t.groups.locality[g]!) ?? ''}`;
}

/** Edits the JSON directory at the end of an index and writes a matching checksum. */
async function rewriteDirectory(file: string, edit: (directory: string) => string): Promise<void> {
  const bytes = await readFile(file);
  const at = bytes.readDoubleLE(16);
  const directory = edit(bytes.subarray(at).toString('utf8'));
  const body = Buffer.concat([bytes.subarray(0, at), Buffer.from(directory, 'utf8')]);
  body.writeUInt32LE(Buffer.byteLength(directory), 12);
  body.writeDoubleLE(body.length, 24);
  body.writeUInt32LE(crc32(body.subarray(48)), 32);
  await writeFile(file, body);
}
