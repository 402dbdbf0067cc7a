import { CliError } from '../cli-error.ts';

export type Row = Readonly<Record<string, unknown>>;

/** The admin API's answer as an object, or a clear error if it is not one. */
export function asRow(value: unknown): Row {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('the admin API answered with an unexpected body (expected a JSON object)');
  }
  return value as Row;
}

export function asRows(value: unknown): Row[] {
  if (!Array.isArray(value))
    throw new CliError('the admin API answered with an unexpected body (expected a JSON array)');
  return value.map(asRow);
}

/** Exactly the contract's fields, in the contract's order (nothing the API may add later). */
export function pick(row: Row, keys: readonly string[]): Row {
  return Object.fromEntries(keys.map((key) => [key, row[key]]));
}

export function text(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  return value === null || value === undefined ? '-' : String(value);
}
