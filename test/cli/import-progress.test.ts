import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAddressData } from '#admin';
import { importProgress } from '../../src/cli/admin/import-progress.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/gnaf');

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokengate-address-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the progress of tokengate admin address import', () => {
  it('draws a progress bar on stderr and ends with a summary line', async () => {
    const stderr = new PassThrough();
    let output = '';
    stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const progress = importProgress(stderr);
    progress.done(await importAddressData({ gnafDir: FIXTURE, dataDir }, { onProgress: progress.onProgress }));
    expect(output).toMatch(/\[#{30}\] 100% writing\s+11 addresses\n/);
    expect(output).toMatch(
      /imported 11 addresses \(1 aliases, 1 without coordinates; skipped 1 retired, 1 invalid\) from 15 files/,
    );
  });
});
