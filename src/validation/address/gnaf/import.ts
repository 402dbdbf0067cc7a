import { installDataset } from '../dataset/install.ts';
import { writeDataset } from '../dataset/load.ts';
import { buildTermIndex } from '../search/term-index.ts';
import { TableBuilder } from '../dataset/table-builder.ts';
import { findGnafFiles, type GnafFiles } from './files.ts';
import { type ImportCounts, importState } from './import-state.ts';
import { loadLookups } from './lookups.ts';

export interface ImportProgress {
  readonly phase: 'lookups' | 'addresses' | 'indexing' | 'writing';
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly addresses: number;
}

export interface ImportSummary {
  readonly addresses: number;
  readonly aliases: number;
  readonly withoutCoordinates: number;
  readonly skippedRetired: number;
  readonly skippedInvalid: number;
  readonly files: number;
  readonly seconds: number;
  readonly dataset: string;
  readonly version: string;
}

export interface ImportOptions {
  readonly onProgress?: (progress: ImportProgress) => void;
  readonly now?: () => Date;
}

/**
 * Imports a G-NAF release (pipe-separated files) into `$DATA_DIR/address/`: small tables into
 * maps, then state by state its default geocodes and aliases, streaming ADDRESS_DETAIL rows
 * into the columnar builder; the result is written to a temporary directory and switched in
 * atomically (see install.ts), so a failed import leaves the previous data set live.
 */
export async function importGnaf(dir: string, dataDir: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const files = await findGnafFiles(dir);
  const counts = { addresses: 0, aliases: 0, withoutCoordinates: 0, skippedRetired: 0, skippedInvalid: 0 };
  let bytesDone = 0;
  const report = (phase: ImportProgress['phase']): void =>
    options.onProgress?.({ phase, bytesDone, bytesTotal: files.totalBytes, addresses: counts.addresses });
  const onBytes =
    (phase: ImportProgress['phase']) =>
    (n: number): void => {
      bytesDone += n;
      report(phase);
    };
  const builder = new TableBuilder();
  await readAddresses(files, builder, counts, onBytes);
  report('indexing');
  const table = builder.build();
  const index = buildTermIndex(table);
  const version = `gnaf-${(options.now?.() ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
  report('writing');
  const dataset = await installDataset(dataDir, version, (tmp) =>
    writeDataset(tmp, { table, index, version, source: 'gnaf' }),
  );
  const fileCount = [...files.tables.values()].flat().length + files.authority.size;
  return { ...counts, files: fileCount, seconds: (performance.now() - started) / 1000, dataset, version };
}

/** Streams every state's addresses into `builder`; its lookups are released when it returns, before the build. */
async function readAddresses(
  files: GnafFiles,
  builder: TableBuilder,
  counts: ImportCounts,
  onBytes: (phase: ImportProgress['phase']) => (n: number) => void,
): Promise<void> {
  const lookups = await loadLookups(files, onBytes('lookups'));
  for (const detail of files.tables.get('ADDRESS_DETAIL') ?? []) {
    await importState(detail, files.tables, lookups, builder, counts, onBytes('addresses'));
  }
}
