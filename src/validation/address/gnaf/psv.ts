import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A header-indexed view of one pipe-separated G-NAF row (no per-row objects). */
export interface PsvRow {
  get(column: string): string | null;
}

export class GnafFormatError extends Error {}

/**
 * A copy of a cell value that does not keep its file chunk alive. V8 cuts a cell of 13 or more
 * characters out of the 1 MB chunk it was read from without copying it, so one such value kept
 * per chunk (a legal parcel id, an alias's principal pid) kept the whole ADDRESS_DETAIL file in
 * memory: 168 B per address at 1 M addresses, 2.6 GB at 15.6 M. Use it for values that outlive
 * the row.
 */
export function detached(value: string | null): string | null {
  return value === null || value.length < 13 ? value : Buffer.from(value, 'utf8').toString('utf8');
}

/**
 * Streams a G-NAF `.psv` file (first line = column names, `|` separated) row by row in
 * constant memory. Fails fast when a required column is missing (a wrong or truncated file),
 * reporting the bytes read so a caller can draw progress.
 */
export async function readPsv(
  file: string,
  required: readonly string[],
  onRow: (row: PsvRow) => void,
  onBytes: (bytes: number) => void = () => {},
): Promise<number> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let reported = 0;
  stream.on('data', () => {
    onBytes(stream.bytesRead - reported);
    reported = stream.bytesRead;
  });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let columns: Map<string, number> | null = null;
  let cells: string[] = [];
  const row: PsvRow = {
    get(column) {
      const value = cells[columns!.get(column) ?? -1];
      return value === undefined || value === '' ? null : value;
    },
  };
  let count = 0;
  for await (const line of lines) {
    if (!columns) {
      columns = new Map(
        line
          .replace(/^\uFEFF/, '')
          .split('|')
          .map((name, i) => [name.trim().toUpperCase(), i]),
      );
      const missing = required.filter((c) => !columns!.has(c));
      if (missing.length > 0) throw new GnafFormatError(`${file}: missing column ${missing.join(', ')}`);
      continue;
    }
    if (line === '') continue;
    cells = line.split('|');
    onRow(row);
    count++;
  }
  if (!columns) throw new GnafFormatError(`${file}: empty file (no header)`);
  return count;
}
