/** A plain aligned text table for the human (non --json) output. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '(none)';
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** `key: value` lines. */
export function fields(entries: Readonly<Record<string, unknown>>): string {
  const width = Math.max(...Object.keys(entries).map((key) => key.length));
  return Object.entries(entries)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join('\n');
}
