import { readFileSync } from 'node:fs';

/**
 * The sample generator's tables are data files beside these modules (localities.csv,
 * street-names.txt, landmark-streets.csv), read once at start as the SQL migrations and the
 * portal's assets are: the Docker image copies src whole, so they ship with the code.
 */
export function dataLines(name: string): string[] {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The rows of a comma-separated file (no quoting: no field holds a comma), its header checked. */
export function dataRows(name: string, header: readonly string[]): string[][] {
  const [first, ...rows] = dataLines(name);
  if (first !== header.join(',')) throw new Error(`${name}: the header must be ${header.join(',')}`);
  return rows.map((line, i) => {
    const fields = line.split(',').map((field) => field.trim());
    if (fields.length !== header.length) throw new Error(`${name}:${i + 2}: ${header.length} fields expected`);
    return fields;
  });
}
