import { createReadStream } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '#common';
import { DEFAULT_SAMPLE, generateSample, type SampleOptions } from '../data/generate.ts';
import { saltOf } from '../format/address-id.ts';
import { AddressSearch } from '../search/search.ts';
import { buildTermIndex, type TermIndex } from '../search/term-index.ts';
import { INDEX_FILE, type IndexIdentity, IndexFileError } from './index-file.ts';
import { readIndex } from './index-reader.ts';
import { writeIndex } from './index-writer.ts';
import { addressDir, currentDataset, installSample } from './install.ts';
import type { AddressTable } from './table.ts';
import { TableBuilder } from './table-builder.ts';
import { fromTsvLine } from './tsv.ts';

/** A data set ready to answer: table, term index, search, and the id salt of this version. */
export interface AddressDataset {
  readonly table: AddressTable;
  readonly index: TermIndex;
  readonly search: AddressSearch;
  readonly salt: number;
  readonly version: string;
  readonly source: 'sample' | 'gnaf';
}

/** `manifest.json` of a data set directory: what it is, for people and for the loader. */
export type Manifest = IndexIdentity;

export function datasetFromTable(
  table: AddressTable,
  version: string,
  source: AddressDataset['source'],
  index: TermIndex = buildTermIndex(table),
): AddressDataset {
  return { table, index, search: new AddressSearch(table, index), salt: saltOf(version), version, source };
}

export function sampleDataset(options: SampleOptions = DEFAULT_SAMPLE): AddressDataset {
  const builder = new TableBuilder();
  for (const input of generateSample(options)) builder.add(input);
  return datasetFromTable(builder.build(), sampleVersion(options), 'sample');
}

function sampleVersion(options: SampleOptions): string {
  return `sample-${options.seed}-${options.count}`;
}

/** Writes a data set's manifest and persisted index into `dir` (a directory being installed). */
export async function writeDataset(
  dir: string,
  dataset: Pick<AddressDataset, 'table' | 'index' | 'version' | 'source'>,
  createdAt = new Date(),
): Promise<void> {
  const identity: IndexIdentity = {
    version: dataset.version,
    source: dataset.source,
    count: dataset.table.size,
    createdAt: createdAt.toISOString(),
  };
  await writeIndex(join(dir, INDEX_FILE), dataset.table, dataset.index, identity);
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(identity, null, 2)}\n`);
}

/**
 * The data set to serve: the imported one named by `$DATA_DIR/address/CURRENT`, opened from
 * its persisted index; when none was imported, the deterministic sample, opened from its own
 * persisted index or generated (about 2 s for 200,000 addresses) and persisted for the next
 * start. An imported data set whose index is refused fails the load: the caller keeps what it
 * served (a reload) or does not start; a sample's is regenerated.
 */
export async function loadAddressDataset(options: {
  dataDir: string;
  log: Logger;
  sample?: SampleOptions;
}): Promise<AddressDataset> {
  const started = performance.now();
  const dir = await currentDataset(options.dataDir);
  const { dataset, from } = dir ? await openImported(dir, options.log) : await openSample(options);
  options.log.info(
    {
      source: dataset.source,
      version: dataset.version,
      addresses: dataset.table.size,
      from,
      ms: Math.round(performance.now() - started),
    },
    'address data set loaded',
  );
  return dataset;
}

type Opened = { dataset: AddressDataset; from: 'index' | 'generated' | 'addresses.tsv' };

async function openImported(dir: string, log: Logger): Promise<Opened> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (!(await exists(join(dir, INDEX_FILE))) && (await exists(join(dir, 'addresses.tsv')))) {
    log.warn(
      { dir },
      'address data set has no persisted index (imported by an older tokengate): rebuilding it in memory; run `address import` again to persist one',
    );
    return { dataset: await readTsvDataset(dir, manifest.version), from: 'addresses.tsv' };
  }
  return { dataset: await openIndex(join(dir, INDEX_FILE), manifest.version), from: 'index' };
}

async function openIndex(file: string, version: string): Promise<AddressDataset> {
  const { identity, table, index } = await readIndex(file);
  if (identity.version !== version)
    throw new IndexFileError(file, `belongs to data set ${identity.version}, not ${version}`);
  return datasetFromTable(table, identity.version, identity.source, index);
}

async function openSample(options: { dataDir: string; log: Logger; sample?: SampleOptions }): Promise<Opened> {
  const sample = options.sample ?? DEFAULT_SAMPLE;
  const version = sampleVersion(sample);
  const file = join(addressDir(options.dataDir), version, INDEX_FILE);
  if (await exists(file)) {
    try {
      return { dataset: await openIndex(file, version), from: 'index' };
    } catch (error) {
      if (!(error instanceof IndexFileError)) throw error;
      options.log.warn({ reason: error.message }, 'address sample index refused: generating the sample again');
    }
  }
  const dataset = sampleDataset(sample);
  try {
    await installSample(options.dataDir, version, (dir) => writeDataset(dir, dataset));
  } catch (error) {
    // A read-only DATA_DIR still serves: the sample is generated again at the next start.
    options.log.warn({ reason: (error as Error).message }, 'address sample index not persisted');
  }
  return { dataset, from: 'generated' };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** A data set imported before indexes were persisted: one address per TSV line, rebuilt here. */
async function readTsvDataset(dir: string, version: string): Promise<AddressDataset> {
  const builder = new TableBuilder();
  const lines = createInterface({ input: createReadStream(join(dir, 'addresses.tsv'), 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number++;
    if (!line) continue;
    try {
      builder.add(fromTsvLine(line));
    } catch (error) {
      throw new TypeError(`${join(dir, 'addresses.tsv')} line ${number}: ${(error as Error).message}`);
    }
  }
  return datasetFromTable(builder.build(), version, 'gnaf');
}
