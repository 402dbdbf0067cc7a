/**
 * The persisted address index: one file, `index.bin`, beside the data set's manifest.
 *
 *   header (48 bytes): magic "TGADDRIX", u32 format, u32 directory length, f64 directory
 *     offset, f64 file length, u32 CRC-32 of every byte after the header, 12 bytes zero
 *   sections, each 8-byte aligned: typed arrays as they lie in memory (little-endian), or a
 *     string list as u32 offsets + UTF-8 bytes (+ u32 ids in value order for searched pools)
 *   directory (JSON, last): the data set's identity and each section's name, kind, offset, length
 *
 * A reader maps typed arrays straight onto the bytes it read: nothing is parsed or rebuilt.
 * FORMAT changes whenever the meaning of a section changes (its name and kind are checked anyway).
 */
export const INDEX_FILE = 'index.bin';
export const MAGIC = 'TGADDRIX';
export const FORMAT = 1;
export const HEADER_BYTES = 48;

export interface IndexIdentity {
  readonly version: string;
  readonly source: 'sample' | 'gnaf';
  readonly count: number;
  readonly createdAt: string;
}

/** One physical section: a typed array, or one of a string list's parts (`name#offsets`…). */
export interface DirectoryEntry {
  readonly name: string;
  readonly kind: 'u8' | 'u32' | 'i32';
  readonly offset: number;
  /** Elements, not bytes. */
  readonly length: number;
}

export interface Directory {
  readonly dataset: IndexIdentity;
  readonly sections: readonly DirectoryEntry[];
}

export const BYTES_PER: Readonly<Record<DirectoryEntry['kind'], number>> = { u8: 1, u32: 4, i32: 4 };

/** Why an index file was refused: the log line and the operator's next step say it. */
export class IndexFileError extends Error {
  readonly file: string;
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'IndexFileError';
    this.file = file;
  }
}

export function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
