import type { TableBuilder } from '../dataset/table-builder.ts';
import { ADDRESS_COLUMNS, addressFromRow } from './address-rows.ts';
import type { GnafFile, GnafFiles } from './files.ts';
import type { GnafLookups } from './lookups.ts';
import { PidTable } from './pid-table.ts';
import { detached, readPsv } from './psv.ts';

export interface ImportCounts {
  addresses: number;
  aliases: number;
  withoutCoordinates: number;
  skippedRetired: number;
  skippedInvalid: number;
}

type Bytes = (n: number) => void;

/**
 * One state's addresses: its default geocodes (micro-degrees in a PidTable: about 100 MB for
 * the five million of NSW) and alias principals first, then its ADDRESS_DETAIL rows streamed
 * into the builder. Both lookups are dropped when the state is done.
 */
export async function importState(
  detail: GnafFile,
  tables: GnafFiles['tables'],
  lookups: GnafLookups,
  builder: TableBuilder,
  counts: ImportCounts,
  onBytes: Bytes,
): Promise<void> {
  const sameState = (table: 'ADDRESS_DEFAULT_GEOCODE' | 'ADDRESS_ALIAS'): GnafFile[] =>
    (tables.get(table) ?? []).filter((f) => f.state === detail.state);
  const geocodes = await readGeocodes(sameState('ADDRESS_DEFAULT_GEOCODE'), onBytes);
  const principals = await readPrincipals(sameState('ADDRESS_ALIAS'), onBytes);
  const geocode = (pid: string): readonly [number, number] | undefined => {
    const point = geocodes.get(pid);
    return point && [point[0] / 1e6, point[1] / 1e6];
  };
  await readPsv(
    detail.path,
    ADDRESS_COLUMNS,
    (row) => {
      const result = addressFromRow(row, lookups, geocode, (pid) => principals.get(pid));
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

async function readGeocodes(files: readonly GnafFile[], onBytes: Bytes): Promise<PidTable> {
  const geocodes = new PidTable();
  for (const file of files) {
    await readPsv(
      file.path,
      ['ADDRESS_DETAIL_PID', 'LATITUDE', 'LONGITUDE'],
      (row) => {
        const lat = Number(row.get('LATITUDE'));
        const lon = Number(row.get('LONGITUDE'));
        if (!row.get('DATE_RETIRED') && Number.isFinite(lat) && Number.isFinite(lon))
          geocodes.set(row.get('ADDRESS_DETAIL_PID')!, Math.round(lat * 1e6), Math.round(lon * 1e6));
      },
      onBytes,
    );
  }
  return geocodes;
}

async function readPrincipals(files: readonly GnafFile[], onBytes: Bytes): Promise<Map<string, string>> {
  const principals = new Map<string, string>();
  for (const file of files) {
    await readPsv(
      file.path,
      ['PRINCIPAL_PID', 'ALIAS_PID'],
      (row) => {
        if (!row.get('DATE_RETIRED')) principals.set(row.get('ALIAS_PID')!, detached(row.get('PRINCIPAL_PID'))!);
      },
      onBytes,
    );
  }
  return principals;
}
