import { titleCase } from '../dataset/address-input.ts';
import { FLAT_TYPES, isStateCode, LEVEL_TYPES, STREET_SUFFIXES, type StateCode } from '../data/vocabulary.ts';
import type { AuthorityTable, GnafFile, GnafFiles } from './files.ts';
import { readPsv } from './psv.ts';

/** The small G-NAF tables held in memory while addresses stream past. */
export interface GnafLookups {
  readonly flatTypes: ReadonlyMap<string, string>;
  readonly levelTypes: ReadonlyMap<string, string>;
  readonly suffixes: ReadonlyMap<string, string>;
  readonly localities: ReadonlyMap<string, { name: string; state: StateCode; postcode: string | null }>;
  readonly streets: ReadonlyMap<string, { name: string; type: string | null; suffix: string | null }>;
}

type Bytes = (n: number) => void;

export async function loadLookups(files: GnafFiles, onBytes: Bytes): Promise<GnafLookups> {
  const flatTypes = await authority(files.authority.get('FLAT_TYPE_AUT'), FLAT_TYPES, onBytes);
  const levelTypes = await authority(files.authority.get('LEVEL_TYPE_AUT'), LEVEL_TYPES, onBytes);
  const suffixes = await authority(files.authority.get('STREET_SUFFIX_AUT'), STREET_SUFFIXES, onBytes);
  if (files.authority.get('STREET_TYPE_AUT'))
    await readPsv(files.authority.get('STREET_TYPE_AUT' as AuthorityTable)!.path, ['CODE'], () => {}, onBytes);
  const states = new Map<string, StateCode>();
  for (const file of files.tables.get('STATE') ?? []) {
    await readPsv(
      file.path,
      ['STATE_PID', 'STATE_ABBREVIATION'],
      (row) => {
        const code = row.get('STATE_ABBREVIATION') ?? '';
        if (isStateCode(code) && !row.get('DATE_RETIRED')) states.set(row.get('STATE_PID')!, code);
      },
      onBytes,
    );
  }
  const localities = new Map<string, { name: string; state: StateCode; postcode: string | null }>();
  for (const file of files.tables.get('LOCALITY') ?? []) {
    await readPsv(
      file.path,
      ['LOCALITY_PID', 'LOCALITY_NAME', 'STATE_PID'],
      (row) => {
        const state = states.get(row.get('STATE_PID') ?? '');
        if (state && !row.get('DATE_RETIRED')) {
          localities.set(row.get('LOCALITY_PID')!, {
            name: row.get('LOCALITY_NAME')!.toUpperCase(),
            state,
            postcode: row.get('PRIMARY_POSTCODE'),
          });
        }
      },
      onBytes,
    );
  }
  const streets = new Map<string, { name: string; type: string | null; suffix: string | null }>();
  for (const file of files.tables.get('STREET_LOCALITY') ?? []) {
    await readPsv(
      file.path,
      ['STREET_LOCALITY_PID', 'STREET_NAME', 'STREET_TYPE_CODE', 'STREET_SUFFIX_CODE'],
      (row) => {
        if (row.get('DATE_RETIRED')) return;
        const type = row.get('STREET_TYPE_CODE');
        const suffix = row.get('STREET_SUFFIX_CODE');
        streets.set(row.get('STREET_LOCALITY_PID')!, {
          name: titleCase(row.get('STREET_NAME') ?? ''),
          type: type ? titleCase(type) : null,
          suffix: suffix ? (suffixes.get(suffix) ?? titleCase(suffix)) : null,
        });
      },
      onBytes,
    );
  }
  return { flatTypes, levelTypes, suffixes, localities, streets };
}

/** CODE → display name from an Authority_Code file, or our built-in table when it is absent. */
async function authority(
  file: GnafFile | undefined,
  fallback: Readonly<Record<string, string>>,
  onBytes: Bytes,
): Promise<Map<string, string>> {
  const map = new Map(Object.entries(fallback));
  if (!file) return map;
  await readPsv(
    file.path,
    ['CODE', 'NAME'],
    (row) => {
      map.set(row.get('CODE')!, titleCase(row.get('NAME') ?? row.get('CODE')!));
    },
    onBytes,
  );
  return map;
}
