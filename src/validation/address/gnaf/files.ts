import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GnafFormatError } from './psv.ts';

/** The G-NAF tables the import reads, by their release file names. */
export const STATE_TABLES = [
  'ADDRESS_DETAIL',
  'ADDRESS_DEFAULT_GEOCODE',
  'ADDRESS_ALIAS',
  'STREET_LOCALITY',
  'LOCALITY',
  'STATE',
] as const;
export const AUTHORITY_TABLES = ['STREET_TYPE_AUT', 'STREET_SUFFIX_AUT', 'FLAT_TYPE_AUT', 'LEVEL_TYPE_AUT'] as const;
export type StateTable = (typeof STATE_TABLES)[number];
export type AuthorityTable = (typeof AUTHORITY_TABLES)[number];

export interface GnafFile {
  readonly path: string;
  readonly size: number;
  /** State prefix of the file name (NSW_ADDRESS_DETAIL_psv.psv → NSW). */
  readonly state: string;
}

export interface GnafFiles {
  readonly tables: ReadonlyMap<StateTable, GnafFile[]>;
  readonly authority: ReadonlyMap<AuthorityTable, GnafFile>;
  readonly totalBytes: number;
}

const STATE_FILE = new RegExp(`^([A-Z]{2,3})_(${STATE_TABLES.join('|')})_psv\\.psv$`, 'i');
const AUTHORITY_FILE = new RegExp(`^Authority_Code_(${AUTHORITY_TABLES.join('|')})_psv\\.psv$`, 'i');

/**
 * Finds the release's files anywhere under `dir` (the release nests them as
 * `G-NAF/G-NAF <MONTH YEAR>/Standard/<STATE>_<TABLE>_psv.psv` and `.../Authority Code/…`).
 */
export async function findGnafFiles(dir: string): Promise<GnafFiles> {
  const tables = new Map<StateTable, GnafFile[]>();
  const authority = new Map<AuthorityTable, GnafFile>();
  let totalBytes = 0;
  for (const path of await walk(dir, 0)) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const stateMatch = STATE_FILE.exec(name);
    const authMatch = AUTHORITY_FILE.exec(name);
    if (!stateMatch && !authMatch) continue;
    const file = { path, size: (await stat(path)).size, state: stateMatch ? stateMatch[1]!.toUpperCase() : '' };
    totalBytes += file.size;
    if (stateMatch) {
      const table = stateMatch[2]!.toUpperCase() as StateTable;
      tables.set(table, [...(tables.get(table) ?? []), file]);
    } else authority.set(authMatch![1]!.toUpperCase() as AuthorityTable, file);
  }
  for (const table of ['ADDRESS_DETAIL', 'STREET_LOCALITY', 'LOCALITY', 'STATE'] as const) {
    if (!tables.has(table))
      throw new GnafFormatError(`no *_${table}_psv.psv file under ${dir}: is this a G-NAF release directory?`);
  }
  return { tables, authority, totalBytes };
}

async function walk(dir: string, depth: number): Promise<string[]> {
  if (depth > 6) return [];
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path, depth + 1)));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.psv')) out.push(path);
  }
  return out.sort();
}
