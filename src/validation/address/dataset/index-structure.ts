import type { NumberArray } from './index-layout.ts';
import type { OpenedIndex } from './opened-index.ts';

/**
 * The structural checks an opened index must pass before it serves: lengths agree, offset
 * arrays are monotonic and end where their data ends, and the term index points only at
 * groups and terms that exist. They run in O(groups + terms + pool size); per-row ids are
 * covered by the CRC (a file that passes it was written whole by the writer).
 */
export function checkStructure(
  views: ReadonlyMap<string, NumberArray>,
  opened: OpenedIndex,
  fail: (reason: string) => never,
): void {
  const { table, index, identity } = opened;
  const rows = identity.count;
  const groups = table.groups.count;
  const check = (ok: boolean, what: string): void => {
    if (!ok) fail(`corrupt: ${what}`);
  };
  for (const [name, data] of views) {
    if (name.startsWith('rows.sparse.') && name.endsWith('.rows')) {
      const values = views.get(name.replace(/\.rows$/, '.values'))!;
      check(values.length === data.length && ascending(data, rows), `${name} does not list rows in order`);
    } else if (name.startsWith('rows.') && !name.startsWith('rows.sparse.'))
      check(data.length === rows, `${name} has ${data.length} rows, not ${rows}`);
    if (name.startsWith('groups.') && name !== 'groups.rowStart')
      check(data.length === groups, `${name} has ${data.length} groups, not ${groups}`);
    if (name.endsWith('#offsets')) {
      const bytes = views.get(name.replace('#offsets', '#bytes'))!;
      check(data.length >= 1 && monotonic(data, 0, bytes.length), `${name} does not span its text`);
      const sorted = views.get(name.replace('#offsets', '#sorted'));
      if (sorted) check(sorted.length === data.length - 2 && below(sorted, data.length - 1), `${name} order`);
    }
  }
  check(monotonic(table.groups.rowStart, 0, rows), 'groups.rowStart does not span the rows');
  check(table.numeric.length === table.pool.size, 'table.numeric does not match the pool');
  check(!table.pidOrder || (table.pidOrder.length === rows && below(table.pidOrder, rows)), 'table.pidOrder');
  check(index.postStart.length === index.terms.length + 1, 'terms.postStart does not match the terms');
  check(monotonic(index.postStart, 0, index.postGroups.length), 'terms.postStart does not span the postings');
  check(below(index.postGroups, groups), 'terms.postGroups names a group that does not exist');
  check(index.fwdStart.length === groups + 1, 'terms.fwdStart does not match the groups');
  check(monotonic(index.fwdStart, 0, index.fwdTerms.length), 'terms.fwdStart does not span the forward index');
  check(index.fwdField.length === index.fwdTerms.length, 'terms.fwdField does not match terms.fwdTerms');
  check(below(index.fwdTerms, index.terms.length), 'terms.fwdTerms names a term that does not exist');
}

/** Starts at `first`, never decreases, ends at `last`. */
function monotonic(values: NumberArray, first: number, last: number): boolean {
  if (values.length === 0 || values[0] !== first || values[values.length - 1] !== last) return false;
  for (let i = 1; i < values.length; i++) if (values[i]! < values[i - 1]!) return false;
  return true;
}

/** Strictly ascending, each below `limit`. */
function ascending(values: NumberArray, limit: number): boolean {
  for (let i = 0; i < values.length; i++)
    if (values[i]! >= limit || (i > 0 && values[i]! <= values[i - 1]!)) return false;
  return true;
}

function below(values: NumberArray, limit: number): boolean {
  for (let i = 0; i < values.length; i++) if (values[i]! >= limit) return false;
  return true;
}
