import { installDataset } from '../dataset/install.ts';
import { writeDataset } from '../dataset/load.ts';
import { buildTermIndex } from '../search/term-index.ts';
import { TableBuilder } from '../dataset/table-builder.ts';
import { ADDRESS_COLUMNS, addressFromRow } from './address-rows.ts';
import { findGnafFiles, type GnafFile } from './files.ts';
import { type GnafLookups, loadLookups } from './lookups.ts';
import { readPsv } from './psv.ts';

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
  const lookups = await loadLookups(files, onBytes('lookups'));
  const builder = new TableBuilder();
  for (const detail of files.tables.get('ADDRESS_DETAIL') ?? []) {
    await importState(detail, files.tables, lookups, builder, counts, onBytes('addresses'));
  }
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

async function importState(
  detail: GnafFile,
  tables: Awaited<ReturnType<typeof findGnafFiles>>['tables'],
  lookups: GnafLookups,
  builder: TableBuilder,
  counts: {
    addresses: number;
    aliases: number;
    withoutCoordinates: number;
    skippedRetired: number;
    skippedInvalid: number;
  },
  onBytes: (n: number) => void,
): Promise<void> {
  const sameState = (table: 'ADDRESS_DEFAULT_GEOCODE' | 'ADDRESS_ALIAS'): GnafFile[] =>
    (tables.get(table) ?? []).filter((f) => f.state === detail.state);
  const geocodes = new Map<string, readonly [number, number]>();
  for (const file of sameState('ADDRESS_DEFAULT_GEOCODE')) {
    await readPsv(
      file.path,
      ['ADDRESS_DETAIL_PID', 'LATITUDE', 'LONGITUDE'],
      (row) => {
        const lat = Number(row.get('LATITUDE'));
        const lon = Number(row.get('LONGITUDE'));
        if (!row.get('DATE_RETIRED') && Number.isFinite(lat) && Number.isFinite(lon))
          geocodes.set(row.get('ADDRESS_DETAIL_PID')!, [lat, lon]);
      },
      onBytes,
    );
  }
  const principals = new Map<string, string>();
  for (const file of sameState('ADDRESS_ALIAS')) {
    await readPsv(
      file.path,
      ['PRINCIPAL_PID', 'ALIAS_PID'],
      (row) => {
        if (!row.get('DATE_RETIRED')) principals.set(row.get('ALIAS_PID')!, row.get('PRINCIPAL_PID')!);
      },
      onBytes,
    );
  }
  await readPsv(
    detail.path,
    ADDRESS_COLUMNS,
    (row) => {
      const result = addressFromRow(
        row,
        lookups,
        (pid) => geocodes.get(pid),
        (pid) => principals.get(pid),
      );
      if (result === 'retired') counts.skippedRetired++;
      else if (result === 'invalid') counts.skippedInvalid++;
      else {
        builder.add(result);
        counts.addresses++;
        if (result.aliasOfPid) counts.aliases++;
        if (result.latitude === null) counts.withoutCoordinates++;
      }
    },
    onBytes,
  );
}
