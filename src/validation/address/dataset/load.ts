import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '#common';
import { DEFAULT_SAMPLE, generateSample, type SampleOptions } from '../data/generate.ts';
import { saltOf } from '../format/address-id.ts';
import { AddressSearch } from '../search/search.ts';
import { buildTermIndex } from '../search/term-index.ts';
import { currentDataset } from './install.ts';
import type { AddressTable } from './table.ts';
import { TableBuilder } from './table-builder.ts';
import { fromTsvLine } from './tsv.ts';

/** A data set ready to answer: table, search, and the id salt of this version. */
export interface AddressDataset {
  readonly table: AddressTable;
  readonly search: AddressSearch;
  readonly salt: number;
  readonly version: string;
  readonly source: 'sample' | 'gnaf';
}

export interface Manifest {
  readonly version: string;
  readonly source: 'gnaf';
  readonly count: number;
  readonly createdAt: string;
}

export function datasetFromTable(
  table: AddressTable,
  version: string,
  source: AddressDataset['source'],
): AddressDataset {
  return { table, search: new AddressSearch(table, buildTermIndex(table)), salt: saltOf(version), version, source };
}

export function sampleDataset(options: SampleOptions = DEFAULT_SAMPLE): AddressDataset {
  const builder = new TableBuilder();
  for (const input of generateSample(options)) builder.add(input);
  return datasetFromTable(builder.build(), `sample-${options.seed}-${options.count}`, 'sample');
}

/**
 * The imported data set named by `$DATA_DIR/address/CURRENT`, or, when none was imported,
 * the deterministic sample generated in memory (about 2 s for 200,000 addresses).
 */
export async function loadAddressDataset(options: {
  dataDir: string;
  log: Logger;
  sample?: SampleOptions;
}): Promise<AddressDataset> {
  const started = performance.now();
  const dir = await currentDataset(options.dataDir);
  const dataset = dir ? await readDataset(dir) : sampleDataset(options.sample);
  options.log.info(
    {
      source: dataset.source,
      version: dataset.version,
      addresses: dataset.table.size,
      ms: Math.round(performance.now() - started),
    },
    'address data set loaded',
  );
  return dataset;
}

async function readDataset(dir: string): Promise<AddressDataset> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
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
  return datasetFromTable(builder.build(), manifest.version, 'gnaf');
}
