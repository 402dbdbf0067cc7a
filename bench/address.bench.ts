/**
 * Address data at 1,000,000 and at national scale (15,600,000 addresses, G-NAF's size), side by
 * side, from the national-shape generator: build time, persisted index size and open time,
 * memory per address, and autocomplete latency on one core (best of three and raw, p50, p99,
 * p999) over a realistic query mix. At the largest size it also starts a real upstream on the
 * persisted index (process start to `/readyz` 200, page cache warm and cold, resident memory
 * while serving) and measures autocomplete through the local stack (gateway + upstream).
 * `ADDRESS_BENCH_COUNTS` overrides the sizes (comma-separated).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { DEFAULT_NATIONAL } from '../src/validation/address/data/national.ts';
import { nationalDataset } from '../src/validation/address/data/national-dataset.ts';
import { INDEX_FILE } from '../src/validation/address/dataset/index-file.ts';
import { readIndex } from '../src/validation/address/dataset/index-reader.ts';
import { installDataset } from '../src/validation/address/dataset/install.ts';
import { datasetFromTable, writeDataset } from '../src/validation/address/dataset/load.ts';
import { benchDatabase } from './address/pg-database.ts';
import { queryMix } from './address/query-mix.ts';
import { type SearchLatency, searchLatency } from './address/search-latency.ts';
import { throughGateway } from './address/through-gateway.ts';
import { openUpstream, type UpstreamOpen } from './address/upstream-open.ts';

interface SizeReport {
  readonly count: number;
  readonly groups: number;
  readonly buildS: number;
  readonly writeS: number;
  readonly indexMb: number;
  readonly openMs: number;
  readonly latency: SearchLatency;
}

async function measureSize(count: number, root: string): Promise<{ report: SizeReport; indexFile: string }> {
  let started = performance.now();
  const built = nationalDataset({ count, seed: DEFAULT_NATIONAL.seed });
  const buildS = (performance.now() - started) / 1000;
  started = performance.now();
  const dir = await installDataset(root, `national-${count}`, (d) => writeDataset(d, { ...built, source: 'gnaf' }));
  const writeS = (performance.now() - started) / 1000;
  const indexFile = join(dir, INDEX_FILE);
  started = performance.now();
  const { identity, table, index } = await readIndex(indexFile);
  const openMs = performance.now() - started;
  const opened = datasetFromTable(table, identity.version, identity.source, index);
  return {
    indexFile,
    report: {
      count,
      groups: table.groups.count,
      buildS,
      writeS,
      indexMb: statSync(indexFile).size / 1e6,
      openMs,
      latency: searchLatency(opened),
    },
  };
}

export default async function bench(): Promise<void> {
  const counts = (process.env.ADDRESS_BENCH_COUNTS ?? '1000000,15600000').split(',').map(Number);
  const reports: SizeReport[] = [];
  const work = await mkdtemp(join(tmpdir(), 'tokengate-address-bench-'));
  try {
    let last: { indexFile: string; root: string } | null = null;
    for (const count of counts) {
      const root = join(work, String(count));
      const { report, indexFile } = await measureSize(count, root);
      reports.push(report);
      last = { indexFile, root };
    }
    printSizes(reports);
    if (!last) return;
    const queries = queryMix((await openedFor(last.indexFile)).dataset, 1000);
    const dataDir = join(work, 'upstream-data');
    const database = await benchDatabase();
    try {
      const base = { dataDir, addressDataDir: last.root, indexFile: last.indexFile, databaseUrl: database?.url };
      await openUpstream({ ...base, queries: [], cold: false }); // creates the signing keys
      const warm = await openUpstream({ ...base, queries, cold: false });
      const cold = await openUpstream({ ...base, queries, cold: true });
      const store = database ? 'PostgreSQL' : 'the embedded store (no PostgreSQL answered)';
      printOpen(counts[counts.length - 1]!, store, warm, cold);
    } finally {
      await database?.drop();
    }
    const gateway = await throughGateway(last.root, queryMix((await openedFor(last.indexFile)).dataset, 2000));
    console.log(
      `through the gateway (local stack, one client, sequential, ${(2000).toLocaleString('en-AU')} calls): ` +
        `p50 ${gateway.p50.toFixed(2)} ms  p99 ${gateway.p99.toFixed(2)} ms  p999 ${gateway.p999.toFixed(2)} ms  max ${gateway.max.toFixed(2)} ms`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function openedFor(file: string) {
  const { identity, table, index } = await readIndex(file);
  return { dataset: datasetFromTable(table, identity.version, identity.source, index) };
}

function printSizes(reports: readonly SizeReport[]): void {
  const cell = (value: string): string => value.padStart(14);
  const row = (label: string, values: (r: SizeReport) => string): void =>
    console.log(label.padEnd(34) + reports.map((r) => cell(values(r))).join(''));
  console.log(`address data, national shape, one thread (load average ${loadavg()[0]!.toFixed(1)})`);
  row('addresses', (r) => r.count.toLocaleString('en-AU'));
  row('street-localities', (r) => r.groups.toLocaleString('en-AU'));
  row('generate + index (s)', (r) => r.buildS.toFixed(1));
  row('write index.bin (s)', (r) => r.writeS.toFixed(2));
  row('index.bin (MB)', (r) => r.indexMb.toFixed(0));
  row('index.bin per address (B)', (r) => ((r.indexMb * 1e6) / r.count).toFixed(1));
  row('open in process (ms)', (r) => r.openMs.toFixed(0));
  const ms = (value: number): string => value.toFixed(3);
  row('search best of 3: p50 (ms)', (r) => ms(r.latency.best.p50));
  row('                  p99 (ms)', (r) => ms(r.latency.best.p99));
  row('                  p999 (ms)', (r) => ms(r.latency.best.p999));
  row('                  max (ms)', (r) => ms(r.latency.best.max));
  row('search raw:       p50 (ms)', (r) => ms(r.latency.raw.p50));
  row('                  p99 (ms)', (r) => ms(r.latency.raw.p99));
  row('                  p999 (ms)', (r) => ms(r.latency.raw.p999));
  const largest = reports[reports.length - 1]!;
  console.log(
    `slowest queries at ${largest.count.toLocaleString('en-AU')} (best of 3): ` +
      largest.latency.slowest.map((s) => `"${s.q}" ${s.ms.toFixed(2)} ms`).join(', '),
  );
}

function printOpen(count: number, store: string, warm: UpstreamOpen, cold: UpstreamOpen): void {
  console.log(
    `upstream process on the persisted index of ${count.toLocaleString('en-AU')} addresses, store on ${store}:`,
  );
  for (const [label, r] of [
    ['page cache warm', warm],
    ['page cache cold', cold],
  ] as const) {
    console.log(
      `  ${label}: start to /readyz 200 ${(r.readyMs / 1000).toFixed(2)} s (data set load ${r.loadMs} ms); ` +
        `resident memory after 1,000 calls ${r.rssMb.toFixed(0)} MB (peak ${r.peakRssMb.toFixed(0)} MB)`,
    );
  }
}

if (import.meta.filename === process.argv[1]) await bench();
