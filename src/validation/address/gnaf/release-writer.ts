import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StateCode } from '../data/vocabulary.ts';
import type { AddressInput } from '../dataset/address-input.ts';
import { AUTHORITY_TABLES, type StateTable } from './files.ts';
import { AuthorityCodes, CREATED, detailRow, HEADERS, statePid, stateRow } from './release-rows.ts';

export interface ReleaseOptions {
  /** The release's folder name: G-NAF/G-NAF <release>/Standard; default "SYNTHETIC". */
  readonly release?: string;
  /** Called every 100,000 addresses and at the end. */
  readonly onProgress?: (addresses: number) => void;
}

export interface ReleaseSummary {
  readonly addresses: number;
  readonly aliases: number;
  readonly geocodes: number;
  /** Addresses G-NAF cannot hold: PO boxes and anything without a street. */
  readonly skipped: number;
  readonly localities: number;
  readonly streetLocalities: number;
  /** Bytes of each file written, by path. */
  readonly files: ReadonlyMap<string, number>;
}

/** One output file, written in 1 MB chunks. */
class PsvFile {
  readonly #fd: number;
  #lines: string[] = [];
  #chars = 0;
  bytes = 0;

  constructor(path: string, header: string) {
    this.#fd = openSync(path, 'w');
    this.line(header);
  }

  line(text: string): void {
    this.#lines.push(text);
    this.#chars += text.length + 1;
    if (this.#chars > 1 << 20) this.flush();
  }

  flush(): void {
    if (this.#lines.length === 0) return;
    this.bytes += writeSync(this.#fd, `${this.#lines.join('\n')}\n`);
    this.#lines = [];
    this.#chars = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.#fd);
  }
}

/**
 * Writes addresses as a G-NAF release: per state the ADDRESS_DETAIL, ADDRESS_DEFAULT_GEOCODE,
 * ADDRESS_ALIAS, STREET_LOCALITY, LOCALITY and STATE tables, and the Authority_Code tables of
 * the unit, level, street type and suffix codes, with the columns of the real release, so that
 * importGnaf gives the same addresses back. Streams: it holds the locality and
 * street-locality keys (tens of MB at full size), never the addresses.
 */
export function writeGnafRelease(
  inputs: Iterable<AddressInput>,
  dir: string,
  options: ReleaseOptions = {},
): ReleaseSummary {
  const root = join(dir, 'G-NAF', `G-NAF ${options.release ?? 'SYNTHETIC'}`);
  const standard = join(root, 'Standard');
  mkdirSync(standard, { recursive: true });
  const files = new Map<string, PsvFile>();
  const file = (state: StateCode, table: StateTable): PsvFile => {
    const path = join(standard, `${state}_${table}_psv.psv`);
    let out = files.get(path);
    if (!out) {
      out = new PsvFile(path, HEADERS[table]);
      files.set(path, out);
      if (table === 'ADDRESS_DETAIL') {
        for (const t of ['ADDRESS_DEFAULT_GEOCODE', 'ADDRESS_ALIAS', 'STREET_LOCALITY', 'LOCALITY'] as const)
          file(state, t);
        file(state, 'STATE').line(stateRow(state));
      }
    }
    return out;
  };
  const codes = new AuthorityCodes();
  const localities = new Map<string, string>();
  const streets = new Map<string, string>();
  const counts = { addresses: 0, aliases: 0, geocodes: 0, skipped: 0 };
  for (const a of inputs) {
    if (!a.gnafPid || !a.streetName || a.boxType) {
      counts.skipped++;
      continue;
    }
    const detail = file(a.state, 'ADDRESS_DETAIL');
    const localityKey = `${a.locality}|${a.state}|${a.postcode}`;
    let localityPid = localities.get(localityKey);
    if (!localityPid) {
      localityPid = `loc${(localities.size + 1).toString(16).padStart(12, '0')}`;
      localities.set(localityKey, localityPid);
      file(a.state, 'LOCALITY').line(
        `${localityPid}|${CREATED}||${a.locality.toUpperCase()}|${a.postcode}|G|${statePid(a.state)}|` +
          `${a.state}${localities.size}|5`,
      );
    }
    const streetKey = `${a.streetName}|${a.streetType}|${a.streetSuffix}|${localityPid}`;
    let streetPid = streets.get(streetKey);
    if (!streetPid) {
      streetPid = `${a.state}${2_000_000 + streets.size}`;
      streets.set(streetKey, streetPid);
      file(a.state, 'STREET_LOCALITY').line(
        `${streetPid}|${CREATED}||C|${a.streetName.toUpperCase()}|${codes.code('STREET_TYPE_AUT', a.streetType)}|` +
          `${codes.code('STREET_SUFFIX_AUT', a.streetSuffix)}|${localityPid}|${streets.size}|2|4`,
      );
    }
    counts.addresses++;
    detail.line(
      detailRow(
        a,
        {
          streetPid,
          localityPid,
          flatCode: codes.code('FLAT_TYPE_AUT', a.flatType),
          levelCode: codes.code('LEVEL_TYPE_AUT', a.levelType),
        },
        counts.addresses,
      ),
    );
    if (a.latitude !== null && a.longitude !== null) {
      counts.geocodes++;
      file(a.state, 'ADDRESS_DEFAULT_GEOCODE').line(
        `${counts.geocodes}|${CREATED}||${a.gnafPid}|PC|${a.longitude}|${a.latitude}`,
      );
    }
    if (a.aliasOfPid) {
      counts.aliases++;
      file(a.state, 'ADDRESS_ALIAS').line(`${counts.aliases}|${CREATED}||${a.aliasOfPid}|${a.gnafPid}|RA|`);
    }
    if (counts.addresses % 100_000 === 0) options.onProgress?.(counts.addresses);
  }
  const authority = join(root, 'Authority Code');
  mkdirSync(authority, { recursive: true });
  for (const table of AUTHORITY_TABLES) {
    const [header, ...rows] = codes.rows(table);
    const out = new PsvFile(join(authority, `Authority_Code_${table}_psv.psv`), header!);
    for (const row of rows) out.line(row);
    files.set(join(authority, `Authority_Code_${table}_psv.psv`), out);
  }
  for (const out of files.values()) out.close();
  options.onProgress?.(counts.addresses);
  return {
    ...counts,
    localities: localities.size,
    streetLocalities: streets.size,
    files: new Map([...files].map(([path, out]) => [path, out.bytes])),
  };
}
