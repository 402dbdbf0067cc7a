import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A header-indexed view of one pipe-separated G-NAF row (no per-row objects). */
export interface PsvRow {
  get(column: string): string | null;
}

export class GnafFormatError extends Error {}

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
