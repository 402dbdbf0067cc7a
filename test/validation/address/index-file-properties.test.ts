import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FILE, IndexFileError } from '../../../src/validation/address/dataset/index-file.ts';
import { readIndex } from '../../../src/validation/address/dataset/index-reader.ts';
import { writeDataset } from '../../../src/validation/address/dataset/load.ts';
import { datasetOf, knownAddresses } from './fixtures.ts';

/**
 * An index file is read from disk, where a bad copy, a full disk or a hand edit can leave
 * anything: whatever its bytes, opening it either succeeds or fails with an IndexFileError
 * saying why, never with another error (which would take the upstream's start or reload down
 * without a reason an operator can act on).
 */
let dir: string;
let valid: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tokengate-index-props-'));
  await writeDataset(dir, datasetOf(knownAddresses()));
  valid = await readFile(join(dir, INDEX_FILE));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function opens(bytes: Uint8Array): Promise<'opened' | 'refused'> {
  const file = join(dir, 'candidate.bin');
  await writeFile(file, bytes);
  try {
    await readIndex(file);
    return 'opened';
  } catch (error) {
    if (error instanceof IndexFileError) return 'refused';
    throw error;
  }
}

/** The file with `directory` as its JSON directory and a checksum that matches. */
function withDirectory(directory: string): Buffer {
  const at = valid.readDoubleLE(16);
  const body = Buffer.concat([valid.subarray(0, at), Buffer.from(directory, 'utf8')]);
  body.writeUInt32LE(Buffer.byteLength(directory), 12);
  body.writeDoubleLE(body.length, 24);
  body.writeUInt32LE(crc32(body.subarray(48)), 32);
  return body;
}

describe('opening an index file of any content', () => {
  it('refuses any changed, cut or extended copy', async () => {
    for (let at = 0; at < 48; at++) {
      const copy = Buffer.from(valid);
      copy[at]! ^= 0x40;
      expect(await opens(copy)).toBe('refused');
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }).map(({ at, xor }) => {
            const copy = Buffer.from(valid);
            copy[at % copy.length]! ^= xor;
            return copy;
          }),
          fc.nat().map((n) => valid.subarray(0, n % valid.length)),
          fc.uint8Array({ minLength: 1, maxLength: 64 }).map((tail) => Buffer.concat([valid, tail])),
        ),
        async (bytes) => {
          expect(await opens(bytes)).toBe('refused');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses or opens a directory of any shape, even with a matching checksum', async () => {
    const original = valid.subarray(valid.readDoubleLE(16)).toString('utf8');
    const parsed = JSON.parse(original) as { dataset: unknown; sections: Record<string, unknown>[] };
    const section = fc.record({
      name: fc.constantFrom(...parsed.sections.map((s) => s['name'] as string), 'rows.other', ''),
      kind: fc.constantFrom('u8', 'u32', 'i32', 'f64', 7, null),
      offset: fc.oneof(fc.integer({ min: -8, max: valid.length + 8 }), fc.double(), fc.constant('48')),
      length: fc.oneof(fc.integer({ min: -1, max: valid.length }), fc.constant(Number.MAX_SAFE_INTEGER)),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.record({ index: fc.nat(), replacement: section }).map(({ index, replacement }) =>
            JSON.stringify({
              ...parsed,
              sections: parsed.sections.map((s, i) => (i === index % parsed.sections.length ? replacement : s)),
            }),
          ),
          fc.string().map((junk) => original.slice(0, junk.length) + junk),
        ),
        async (directory) => {
          expect(['opened', 'refused']).toContain(await opens(withDirectory(directory)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
