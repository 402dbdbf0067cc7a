/**
 * Orders rows so each group's rows are contiguous (a stable counting sort by group, O(n)),
 * then sorts a group's slice only if it is out of order: producers that emit street by
 * street in number order (the generator, a data set written by the importer) pay nothing.
 */
export function sortRows(
  rowGroup: Uint32Array,
  groupCount: number,
  compare: (a: number, b: number) => number,
): { rows: Uint32Array; rowStart: Uint32Array } {
  const rowStart = new Uint32Array(groupCount + 1);
  for (const g of rowGroup) rowStart[g + 1]!++;
  for (let g = 0; g < groupCount; g++) rowStart[g + 1]! += rowStart[g]!;
  const cursor = rowStart.slice(0, groupCount);
  const rows = new Uint32Array(rowGroup.length);
  for (let row = 0; row < rowGroup.length; row++) rows[cursor[rowGroup[row]!]!++] = row;
  for (let g = 0; g < groupCount; g++) {
    const start = rowStart[g]!;
    const end = rowStart[g + 1]!;
    if (!isSorted(rows, start, end, compare)) rows.subarray(start, end).sort(compare);
  }
  return { rows, rowStart };
}

function isSorted(rows: Uint32Array, start: number, end: number, compare: (a: number, b: number) => number): boolean {
  for (let i = start + 1; i < end; i++) if (compare(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}
