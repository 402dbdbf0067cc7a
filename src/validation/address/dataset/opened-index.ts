import type { TermIndex } from '../search/term-index.ts';
import type { IndexIdentity } from './index-file.ts';
import type { AddressTable } from './table.ts';

/**
 * A persisted index once opened: what index-reader.ts returns and index-structure.ts checks
 * before it serves (its own module, as the reader calls the checks).
 */
export interface OpenedIndex {
  readonly identity: IndexIdentity;
  readonly table: AddressTable;
  readonly index: TermIndex;
}
