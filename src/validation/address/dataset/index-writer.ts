import { type FileHandle, open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { TermIndex } from '../search/term-index.ts';
import { align8, type DirectoryEntry, FORMAT, HEADER_BYTES, type IndexIdentity, MAGIC } from './index-file.ts';
import { type Section, sectionsOf, type StringsSection } from './index-layout.ts';
import { sortedIds } from './stored-pool.ts';
import type { AddressTable } from './table.ts';

/** Strings are encoded into chunks of this size: a pool of millions never becomes one buffer. */
const CHUNK = 1 << 20;

/**
 * Writes `table` and `index` to `file` (see index-file.ts for the layout): typed arrays go out
 * as their own bytes, string pools in chunks, the CRC over everything after the header is
 * accumulated as it goes, and the file is synced before the caller renames it into place.
 */
export async function writeIndex(
  file: string,
  table: AddressTable,
  index: TermIndex,
  identity: IndexIdentity,
): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    const out = new Output(handle);
    const entries: DirectoryEntry[] = [];
    for (const section of sectionsOf(table, index)) entries.push(...(await writeSection(out, section)));
    const directory = Buffer.from(JSON.stringify({ dataset: identity, sections: entries }), 'utf8');
    const directoryOffset = await out.pad();
    await out.write(directory);
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(FORMAT, 8);
    header.writeUInt32LE(directory.length, 12);
    header.writeDoubleLE(directoryOffset, 16);
    header.writeDoubleLE(out.position, 24);
    header.writeUInt32LE(out.crc, 32);
    await handle.write(header, 0, HEADER_BYTES, 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeSection(out: Output, section: Section): Promise<DirectoryEntry[]> {
  if (section.kind !== 'strings') {
    const offset = await out.pad();
    await out.write(new Uint8Array(section.data.buffer, section.data.byteOffset, section.data.byteLength));
    return [{ name: section.name, kind: section.kind, offset, length: section.data.length }];
  }
  return writeStrings(out, section);
}

async function writeStrings(out: Output, section: StringsSection): Promise<DirectoryEntry[]> {
  const { values } = section;
  const offsets = new Uint32Array(values.size + 1);
  for (let id = 1; id < values.size; id++) {
    const bytes = offsets[id]! + Buffer.byteLength(values.get(id) ?? '', 'utf8');
    if (bytes > 0xffffffff) throw new RangeError(`${section.name}: more than 4 GiB of text`);
    offsets[id + 1] = bytes;
  }
  const entries: DirectoryEntry[] = [];
  const at = await out.pad();
  await out.write(new Uint8Array(offsets.buffer));
  entries.push({ name: `${section.name}#offsets`, kind: 'u32', offset: at, length: offsets.length });
  const bytesAt = await out.pad();
  const chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  for (let id = 1; id < values.size; id++) {
    const value = values.get(id) ?? '';
    if (used + value.length * 3 > CHUNK) {
      await out.write(chunk.subarray(0, used));
      used = 0;
    }
    if (value.length * 3 > CHUNK) await out.write(Buffer.from(value, 'utf8'));
    else used += chunk.write(value, used, 'utf8');
  }
  await out.write(chunk.subarray(0, used));
  entries.push({ name: `${section.name}#bytes`, kind: 'u8', offset: bytesAt, length: offsets[values.size]! });
  if (section.sorted) {
    const sorted = sortedIds(values);
    const sortedAt = await out.pad();
    await out.write(new Uint8Array(sorted.buffer));
    entries.push({ name: `${section.name}#sorted`, kind: 'u32', offset: sortedAt, length: sorted.length });
  }
  return entries;
}

/** Sequential writes after the header (written last), with a running position and CRC. */
class Output {
  readonly #handle: FileHandle;
  position = HEADER_BYTES;
  crc = 0;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  async write(bytes: Uint8Array): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.#handle.write(bytes, done, bytes.length - done, this.position);
      this.crc = crc32(bytes.subarray(done, done + bytesWritten), this.crc);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }

  /** Zero bytes up to the next multiple of 8; returns the aligned position. */
  async pad(): Promise<number> {
    const aligned = align8(this.position);
    if (aligned > this.position) await this.write(new Uint8Array(aligned - this.position));
    return this.position;
  }
}
