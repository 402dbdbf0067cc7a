import { isStateCode, STATE_CODES } from '../data/vocabulary.ts';
import type { AddressInput } from './address-input.ts';
import {
  compactRows,
  type GroupColumns,
  NO_COORDINATE,
  ROW_STRING_COLUMNS,
  type RowColumns,
  type RowStringColumn,
} from './columns.ts';
import { type GrowableColumn, int32Column, uint8Column, uint32Column } from './growable-column.ts';
import { StringPool } from './string-pool.ts';
import { TextStore } from './text-store.ts';
import { PidLookup, pidOrder as pidOrderOf } from './pid-lookup.ts';
import { AddressTable, numericOf } from './table.ts';
import { sortRows } from './row-order.ts';

/**
 * Turns a stream of AddressInput into an AddressTable: interns strings, assigns each address
 * to its street-locality group, then orders rows by group and street number (a counting sort,
 * skipped per group when the producer already emitted them in order). Building hands each
 * column over to the table and releases it (15.6 M addresses: about 1 GB, held once, not
 * twice), so a builder builds once.
 */
export class TableBuilder {
  readonly #pool = new StringPool();
  /** Long, mostly unique text (site names, legal parcel ids) kept apart from identifiers. */
  readonly #texts = new TextStore();
  readonly #types = new StringPool();
  readonly #prefixes = new StringPool();
  readonly #groupKeys = new Map<string, number>();
  readonly #groupFields = Array.from({ length: 7 }, uint32Column);
  readonly #rowGroup = uint32Column();
  readonly #strings = Object.fromEntries(ROW_STRING_COLUMNS.map((c) => [c, uint32Column()])) as Record<
    RowStringColumn,
    GrowableColumn<Uint32Array>
  >;
  /** Unit type, level type and pid prefix ids: at most 255 of each. */
  readonly #small = Array.from({ length: 3 }, uint8Column);
  readonly #coords = [int32Column(), int32Column()];
  readonly #pidNumber = uint32Column();
  readonly #aliases: [number, string][] = [];
  readonly #oddPids = new Map<string, number>();
  #size = 0;
  #built = false;

  get size(): number {
    return this.#size;
  }

  add(input: AddressInput): void {
    if (this.#built) throw new TypeError('this TableBuilder has built its table already');
    if (!isStateCode(input.state)) throw new TypeError(`unknown state ${input.state}`);
    this.#size++;
    const row = this.#rowGroup.length;
    this.#rowGroup.push(this.#group(input));
    const s = this.#strings;
    s.numberFirst.push(this.#pool.intern(input.numberFirst));
    s.numberLast.push(this.#pool.intern(input.numberLast));
    s.flat.push(this.#pool.intern(input.flat));
    s.level.push(this.#pool.intern(input.level));
    s.lot.push(this.#pool.intern(input.lot));
    s.site.push(this.#texts.append(input.siteName));
    s.legalParcel.push(this.#texts.append(input.legalParcelId));
    s.boxNumber.push(this.#pool.intern(input.boxNumber));
    // Byte columns: past 255 types building fails (below), so an id of 255 stands for the rest.
    this.#small[0]!.push(Math.min(255, this.#types.intern(input.flatType)));
    this.#small[1]!.push(Math.min(255, this.#types.intern(input.levelType)));
    this.#coords[0]!.push(input.latitude === null ? NO_COORDINATE : Math.round(input.latitude * 1e6));
    this.#coords[1]!.push(input.longitude === null ? NO_COORDINATE : Math.round(input.longitude * 1e6));
    this.#addPid(row, input.gnafPid);
    if (input.aliasOfPid) this.#aliases.push([row, input.aliasOfPid]);
  }

  #addPid(row: number, pid: string | null): void {
    const match = pid ? /^([A-Z_]{1,12}?)(\d{1,9})$/.exec(pid) : null;
    if (pid && (!match || this.#prefixes.size > 250)) this.#oddPids.set(pid, row);
    this.#small[2]!.push(match ? Math.min(255, this.#prefixes.intern(match[1]!)) : 0);
    this.#pidNumber.push(match ? Number(match[2]) : 0);
  }

  #group(input: AddressInput): number {
    const parts = [
      input.streetName,
      input.streetType,
      input.streetSuffix,
      input.boxType,
      input.locality,
      input.state,
      input.postcode,
    ];
    const key = parts.join('\u0001');
    let id = this.#groupKeys.get(key);
    if (id === undefined) {
      id = this.#groupKeys.size;
      this.#groupKeys.set(key, id);
      const f = this.#groupFields;
      for (const [i, value] of [
        input.streetName,
        input.streetType,
        input.streetSuffix,
        input.boxType,
        input.locality,
      ].entries()) {
        f[i]!.push(this.#pool.intern(value));
      }
      f[5]!.push(STATE_CODES.indexOf(input.state));
      f[6]!.push(this.#pool.intern(input.postcode));
    }
    return id;
  }

  build(): AddressTable {
    if (this.#types.size > 255 || this.#prefixes.size > 255)
      throw new TypeError('too many unit/level types or pid prefixes');
    const groupCount = this.#groupKeys.size;
    // The keys of 800,000 street-localities are not needed past this point: free them first.
    this.#groupKeys.clear();
    const order = sortRows(this.#rowGroup.view(), groupCount, this.#rowCompare());
    this.#rowGroup.release();
    const rows = this.#permuteRows(order.rows);
    const oddPids = this.#remapOdd(order.rows);
    const pidOrder = pidOrderOf(rows.pidPrefix, rows.pidNumber);
    const pids = new PidLookup(rows.pidPrefix, rows.pidNumber, this.#prefixes, oddPids, pidOrder);
    const inverse = new Uint32Array(order.rows.length);
    order.rows.forEach((oldRow, newRow) => {
      inverse[oldRow] = newRow;
    });
    for (const [oldRow, pid] of this.#aliases) {
      const principal = pids.rowByPid(pid);
      if (principal >= 0) rows.canonical[inverse[oldRow]!] = principal;
    }
    return new AddressTable(
      {
        rows: compactRows(rows),
        groups: this.#groups(order.rowStart),
        pool: this.#pool,
        texts: this.#texts,
        types: this.#types,
        prefixes: this.#prefixes,
        oddPids,
      },
      { numeric: numericOf(this.#pool), pidOrder },
    );
  }

  /** Within a street: by house number (numerically, then as text), level, unit; else input order. */
  #rowCompare(): (a: number, b: number) => number {
    const pool = this.#pool;
    const first = this.#strings.numberFirst.view();
    const level = this.#strings.level.view();
    const flat = this.#strings.flat.view();
    const box = this.#strings.boxNumber.view();
    const text = (column: Uint32Array, row: number): string => pool.get(column[row]!) ?? '';
    const byNumber = (column: Uint32Array, a: number, b: number): number => {
      if (column[a] === column[b]) return 0;
      const x = text(column, a);
      const y = text(column, b);
      return (Number.parseInt(x, 10) || 0) - (Number.parseInt(y, 10) || 0) || (x < y ? -1 : x > y ? 1 : 0);
    };
    return (a, b) =>
      byNumber(box, a, b) || byNumber(first, a, b) || byNumber(level, a, b) || byNumber(flat, a, b) || a - b;
  }

  /** Each column in table order, releasing the builder's copy as soon as it is taken. */
  #permuteRows(order: Uint32Array): RowColumns {
    const take = <T extends Uint32Array | Int32Array | Uint8Array>(
      source: GrowableColumn<T>,
      make: (n: number) => T,
    ): T => {
      const values = source.view();
      const out = make(order.length);
      for (let i = 0; i < order.length; i++) out[i] = values[order[i]!]!;
      source.release();
      return out;
    };
    const strings = Object.fromEntries(
      ROW_STRING_COLUMNS.map((c) => [c, take(this.#strings[c], (n) => new Uint32Array(n))]),
    );
    const canonical = new Uint32Array(order.length);
    for (let i = 0; i < canonical.length; i++) canonical[i] = i;
    return {
      strings: strings as Record<RowStringColumn, Uint32Array>,
      flatType: take(this.#small[0]!, (n) => new Uint8Array(n)),
      levelType: take(this.#small[1]!, (n) => new Uint8Array(n)),
      latitude: take(this.#coords[0]!, (n) => new Int32Array(n)),
      longitude: take(this.#coords[1]!, (n) => new Int32Array(n)),
      pidPrefix: take(this.#small[2]!, (n) => new Uint8Array(n)),
      pidNumber: take(this.#pidNumber, (n) => new Uint32Array(n)),
      canonical,
    };
  }

  #groups(rowStart: Uint32Array): GroupColumns {
    const f = this.#groupFields.map((g) => {
      const values = g.view().slice();
      g.release();
      return values;
    });
    return {
      count: rowStart.length - 1,
      streetName: f[0]!,
      streetType: f[1]!,
      streetSuffix: f[2]!,
      boxType: f[3]!,
      locality: f[4]!,
      state: Uint8Array.from(f[5]!),
      postcode: f[6]!,
      rowStart,
    };
  }

  #remapOdd(order: Uint32Array): Map<string, number> {
    if (this.#oddPids.size === 0) return this.#oddPids;
    const inverse = new Map<number, number>();
    order.forEach((oldRow, newRow) => {
      inverse.set(oldRow, newRow);
    });
    return new Map([...this.#oddPids].map(([pid, row]) => [pid, inverse.get(row) ?? row]));
  }
}
