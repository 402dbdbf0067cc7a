import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { buildTermIndex, type TermIndex } from '../search/term-index.ts';
import {
  BYTES_PER,
  type Directory,
  type DirectoryEntry,
  FORMAT,
  HEADER_BYTES,
  type IndexIdentity,
  IndexFileError,
  MAGIC,
} from './index-file.ts';
import { type NumberArray, sectionsOf } from './index-layout.ts';
import { StoredPool } from './stored-pool.ts';
import { AddressTable } from './table.ts';
import { TableBuilder } from './table-builder.ts';
import type { GroupColumns, TableRows } from './columns.ts';
import { checkStructure } from './index-structure.ts';
import type { OpenedIndex } from './opened-index.ts';

/** Reads happen in slices of this size, so a reload never blocks the event loop for long. */
const READ_SLICE = 32 << 20;

/**
 * Opens a persisted index: reads the file into one buffer outside the JavaScript heap, checks
 * its header, length and CRC, and lays the table's columns and the term index over the bytes
 * in place. A truncated, corrupt or foreign file is refused with an IndexFileError.
 */
export async function readIndex(file: string): Promise<OpenedIndex> {
  const bytes = await readWhole(file);
  const fail = (reason: string): never => {
    throw new IndexFileError(file, reason);
  };
  const header = Buffer.from(bytes.buffer, 0, HEADER_BYTES);
  if (header.toString('latin1', 0, 8) !== MAGIC) fail('not a tokengate address index (wrong magic bytes)');
  const format = header.readUInt32LE(8);
  if (format !== FORMAT) fail(`index format ${format}, this tokengate reads format ${FORMAT}`);
  if (header.subarray(36).some((byte) => byte !== 0)) fail('corrupt: header');
  const fileLength = header.readDoubleLE(24);
  if (bytes.length < fileLength) fail(`truncated: ${bytes.length} of ${fileLength} bytes`);
  if (bytes.length > fileLength) fail(`${bytes.length - fileLength} unexpected bytes after the end`);
  if (crc32(bytes.subarray(HEADER_BYTES)) !== header.readUInt32LE(32)) fail('corrupt: checksum mismatch');
  const directory = parseDirectory(bytes, header.readDoubleLE(16), header.readUInt32LE(12), fail);
  const views = new Map<string, NumberArray>();
  for (const entry of directory.sections) views.set(entry.name, view(bytes, entry));
  checkLayout(views, directory.sections, fail);
  const opened = assemble(views, directory.dataset);
  checkStructure(views, opened, fail);
  return opened;
}

async function readWhole(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < HEADER_BYTES) throw new IndexFileError(file, `truncated: ${size} bytes, shorter than the header`);
    const bytes = new Uint8Array(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(bytes, done, Math.min(READ_SLICE, size - done), done);
      if (bytesRead === 0) throw new IndexFileError(file, `truncated while reading: ${done} of ${size} bytes`);
      done += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

function parseDirectory(bytes: Uint8Array, offset: number, length: number, fail: (r: string) => never): Directory {
  if (!Number.isSafeInteger(offset) || offset < HEADER_BYTES || offset + length !== bytes.length)
    fail('corrupt: directory outside the file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, offset, length).toString('utf8'));
  } catch {
    fail('corrupt: unreadable directory');
  }
  const d = parsed as Partial<Directory> | null;
  const identity = d?.dataset;
  if (
    !identity ||
    typeof identity.version !== 'string' ||
    (identity.source !== 'sample' && identity.source !== 'gnaf') ||
    !Number.isSafeInteger(identity.count) ||
    typeof identity.createdAt !== 'string' ||
    !Array.isArray(d.sections)
  )
    fail('corrupt: directory lacks the data set identity');
  for (const entry of d!.sections as unknown[]) {
    const e = entry as Partial<DirectoryEntry> | null;
    const ok =
      e &&
      typeof e.name === 'string' &&
      (e.kind === 'u8' || e.kind === 'u32' || e.kind === 'i32') &&
      Number.isSafeInteger(e.offset) &&
      Number.isSafeInteger(e.length) &&
      e.offset! >= HEADER_BYTES &&
      e.length! >= 0 &&
      e.offset! % BYTES_PER[e.kind] === 0 &&
      e.offset! + e.length! * BYTES_PER[e.kind] <= offset;
    if (!ok) fail(`corrupt: bad section ${JSON.stringify(entry).slice(0, 80)}`);
  }
  return d as Directory;
}

function view(bytes: Uint8Array, entry: DirectoryEntry): NumberArray {
  const { buffer } = bytes;
  if (entry.kind === 'u8') return new Uint8Array(buffer, entry.offset, entry.length);
  if (entry.kind === 'u32') return new Uint32Array(buffer, entry.offset, entry.length);
  return new Int32Array(buffer, entry.offset, entry.length);
}

/** The physical sections this code writes: those of an empty data set built by it. */
function expectedLayout(): Map<string, { kind: string; optional: boolean }> {
  const table = new TableBuilder().build();
  const out = new Map<string, { kind: string; optional: boolean }>();
  for (const section of sectionsOf(table, buildTermIndex(table))) {
    if (section.kind !== 'strings') out.set(section.name, { kind: section.kind, optional: false });
    else {
      out.set(`${section.name}#offsets`, { kind: 'u32', optional: false });
      out.set(`${section.name}#bytes`, { kind: 'u8', optional: false });
      if (section.sorted) out.set(`${section.name}#sorted`, { kind: 'u32', optional: false });
    }
  }
  out.set('table.pidOrder', { kind: 'u32', optional: true });
  return out;
}

let expected: Map<string, { kind: string; optional: boolean }> | null = null;

function checkLayout(views: Map<string, NumberArray>, entries: readonly DirectoryEntry[], fail: (r: string) => never) {
  expected ??= expectedLayout();
  const foreign: string[] = [];
  for (const entry of entries) {
    const want = expected.get(entry.name);
    if (!want || want.kind !== entry.kind) foreign.push(`${entry.name} (${entry.kind})`);
  }
  const missing = [...expected].filter(([name, want]) => !want.optional && !views.has(name)).map(([name]) => name);
  if (foreign.length > 0 || missing.length > 0) {
    fail(
      `written by another version of tokengate (${[
        foreign.length > 0 ? `unknown sections: ${foreign.slice(0, 5).join(', ')}` : '',
        missing.length > 0 ? `missing sections: ${missing.slice(0, 5).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')})`,
    );
  }
}

function assemble(views: Map<string, NumberArray>, identity: IndexIdentity): OpenedIndex {
  const nested = (prefix: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [name, data] of views) {
      if (!name.startsWith(`${prefix}.`) || name.includes('#')) continue;
      const path = name.slice(prefix.length + 1).split('.');
      let at = out;
      for (const key of path.slice(0, -1)) {
        at[key] ??= {};
        at = at[key] as Record<string, unknown>;
      }
      at[path[path.length - 1]!] = data;
    }
    return out;
  };
  const pool = (name: string): StoredPool =>
    new StoredPool(
      views.get(`pool.${name}#bytes`) as Uint8Array,
      views.get(`pool.${name}#offsets`) as Uint32Array,
      (views.get(`pool.${name}#sorted`) as Uint32Array | undefined) ?? null,
    );
  const list = (name: string): string[] => {
    const stored = new StoredPool(
      views.get(`${name}#bytes`) as Uint8Array,
      views.get(`${name}#offsets`) as Uint32Array,
      null,
    );
    return Array.from({ length: stored.size - 1 }, (_v, i) => stored.get(i + 1)!);
  };
  const groups = nested('groups');
  const rowStart = groups['rowStart'] as Uint32Array;
  const oddRows = views.get('odd.rows') as Uint32Array;
  const table = new AddressTable(
    {
      rows: nested('rows') as unknown as TableRows,
      groups: { ...groups, count: Math.max(0, rowStart.length - 1) } as unknown as GroupColumns,
      pool: pool('pool'),
      texts: pool('texts'),
      types: pool('types'),
      prefixes: pool('prefixes'),
      oddPids: new Map(list('odd.pids').map((pid, i) => [pid, oddRows[i]!])),
    },
    {
      numeric: views.get('table.numeric') as Int32Array,
      pidOrder: (views.get('table.pidOrder') as Uint32Array | undefined) ?? null,
    },
  );
  const index = { ...nested('terms'), terms: list('terms.terms') } as unknown as TermIndex;
  return { identity, table, index };
}
