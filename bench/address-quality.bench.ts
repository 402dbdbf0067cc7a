/**
 * Address search quality: addresses drawn from the data set (seeded), each typed the ways people
 * type it (bench/address-quality/kinds.ts), sent through the real autocomplete and verification
 * handlers. Prints per kind recall@1 and recall@5 of the intended address, empty answers,
 * verification's match rate where it is a goal, and the autocomplete handler's p99.
 * `ADDRESS_QUALITY_COUNT` sets the data set's size (default 1,000,000), `ADDRESS_QUALITY_SHAPE=national`
 * draws it from the national-shape generator (15,600,000 for full size) rather than the sample's,
 * `ADDRESS_QUALITY_CASES` the addresses per kind (default 250), `ADDRESS_QUALITY_MISSES` how many
 * misses to list.
 */
import { createLogger } from '#common';
import type { ValidationRoute } from '#validation';
import { createRandom, type Random } from '../src/validation/address/data/prng.ts';
import { DEFAULT_NATIONAL } from '../src/validation/address/data/national.ts';
import { nationalDataset } from '../src/validation/address/data/national-dataset.ts';
import type { StateCode } from '../src/validation/address/data/vocabulary.ts';
import { type AddressDataset, sampleDataset } from '../src/validation/address/dataset/load.ts';
import { encodeAddressId } from '../src/validation/address/format/address-id.ts';
import { fullAddress, readParts } from '../src/validation/address/format/address-parts.ts';
import { autocompleteRoute } from '../src/validation/address/http/autocomplete.ts';
import { verificationRoute } from '../src/validation/address/http/verification.ts';
import { type Intended, KINDS, type Kind } from './address-quality/kinds.ts';

const log = createLogger({ level: 'silent' });

/** The data set measured: the sample's shape, or with `ADDRESS_QUALITY_SHAPE=national` G-NAF's. */
function qualityDataset(count: number): AddressDataset {
  if (process.env.ADDRESS_QUALITY_SHAPE === 'national') return nationalDataset({ count, seed: DEFAULT_NATIONAL.seed });
  return sampleDataset({ count, seed: 20_240_801 });
}

/** Localities per street name and type: a street-only query can only find a rare street. */
function streetSpread(dataset: AddressDataset): (group: number) => number {
  const { groups, pool } = dataset.table;
  const key = (g: number): string => `${groups.streetName[g]}|${groups.streetType[g]}|${groups.streetSuffix[g]}`;
  const counts = new Map<string, number>();
  for (let g = 0; g < groups.count; g++) counts.set(key(g), (counts.get(key(g)) ?? 0) + 1);
  return (g) => (pool.get(groups.streetName[g]!) === null ? 0 : counts.get(key(g))!);
}

/** A canonical street address with a plain number: a house (no unit or level) or, for `unit`, a unit. */
function intended(dataset: AddressDataset, row: number, unit: boolean, spread: (g: number) => number): Intended | null {
  const { table } = dataset;
  if (table.canonical(row) !== row) return null;
  const group = table.groupOf(row);
  const p = readParts(table, row, group);
  if (p.numberFirst === null || p.numberLast !== null || p.streetName === null || p.boxType !== null) return null;
  if (unit ? p.flat === null || p.flatType === 'Shop' : p.flat !== null || p.level !== null || p.levelType !== null)
    return null;
  return {
    row,
    id: encodeAddressId(dataset.salt, row),
    full: fullAddress(p),
    number: p.numberFirst,
    unit: p.flat,
    name: p.streetName,
    type: p.streetType,
    suffix: p.streetSuffix,
    locality: p.locality,
    state: p.state as StateCode,
    postcode: p.postcode,
    spread: spread(group),
  };
}

interface Case {
  readonly q: string;
  readonly want: Intended;
}

function casesOf(
  dataset: AddressDataset,
  kind: Kind,
  count: number,
  random: Random,
  spread: (group: number) => number,
): Case[] {
  const out: Case[] = [];
  for (let tries = 0; out.length < count && tries < count * 2000; tries++) {
    const want = intended(dataset, random.int(0, dataset.table.size - 1), kind.unit, spread);
    const q = want && kind.type(want, random);
    if (want && q) out.push({ q, want });
  }
  return out;
}

interface Outcome {
  readonly rank: number;
  readonly empty: boolean;
  readonly verified: boolean;
  readonly ms: number;
}

/** The address handlers answer synchronously (the upstream awaits them all the same). */
function call(route: ValidationRoute, q: string): unknown {
  const response = route.handle({ query: new URLSearchParams({ q }), projectId: 'bench', log });
  if (response instanceof Promise) throw new TypeError(`${route.path} answered asynchronously`);
  return response.body;
}

function runCase(routes: Routes, c: Case): Outcome {
  const started = performance.now();
  const { completions } = call(routes.autocomplete, c.q) as { completions: { id: string; full_address: string }[] };
  const ms = performance.now() - started;
  const rank = completions.findIndex((x) => x.id === c.want.id || x.full_address === c.want.full);
  const body = call(routes.verification, c.q) as { matched?: boolean; address?: { id: string } };
  return {
    rank,
    empty: completions.length === 0,
    verified: body.matched === true && body.address?.id === c.want.id,
    ms,
  };
}

interface Routes {
  readonly autocomplete: ValidationRoute;
  readonly verification: ValidationRoute;
}

const pct = (part: number, whole: number): string => (whole === 0 ? '–' : (part / whole).toFixed(3));

/** The `p` quantile of ascending `sorted`, in ms. */
function at(sorted: readonly number[], p: number): string {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2);
}

export default async function bench(): Promise<void> {
  const count = Number(process.env.ADDRESS_QUALITY_COUNT ?? 1_000_000);
  const perKind = Number(process.env.ADDRESS_QUALITY_CASES ?? 250);
  const started = performance.now();
  const dataset = qualityDataset(count);
  const routes = { autocomplete: autocompleteRoute(() => dataset), verification: verificationRoute(() => dataset) };
  console.log(
    `${count.toLocaleString('en-AU')} addresses (${dataset.table.groups.count.toLocaleString('en-AU')} street-localities), ` +
      `built in ${((performance.now() - started) / 1000).toFixed(1)} s; ${perKind} addresses per kind, seed 7`,
  );
  console.log('\n| kind | example | recall@1 | recall@5 | empty | verified | p99 ms |');
  console.log('|---|---|---|---|---|---|---|');
  const random = createRandom(7);
  const spread = streetSpread(dataset);
  const suites = KINDS.map((kind) => ({ kind, cases: casesOf(dataset, kind, perKind, random, spread) }));
  // One untimed pass first, so the figures are of compiled code, not of the JIT warming up.
  for (const { cases } of suites) for (const c of cases) call(routes.autocomplete, c.q);
  const times: number[] = [];
  let cases = 0;
  let firsts = 0;
  const misses: string[] = [];
  for (const { kind, cases: list } of suites) {
    const outcomes = list.map((c) => ({ ...runCase(routes, c), c }));
    for (const o of outcomes)
      if (o.rank < 0 || o.rank >= 5) misses.push(`${kind.name}: "${o.c.q}" → ${o.c.want.full} (rank ${o.rank})`);
    console.log(row(kind, outcomes));
    times.push(...outcomes.map((o) => o.ms));
    cases += outcomes.length;
    firsts += outcomes.filter((o) => o.rank === 0).length;
  }
  times.sort((a, b) => a - b);
  console.log(`\noverall recall@1 ${pct(firsts, cases)} over ${cases} cases`);
  console.log(
    `autocomplete over these cases: p50 ${at(times, 0.5)} ms, p99 ${at(times, 0.99)} ms, max ${at(times, 1)} ms`,
  );
  for (const miss of misses.slice(0, Number(process.env.ADDRESS_QUALITY_MISSES ?? 0))) console.log(`  miss ${miss}`);
}

function row(kind: Kind, outcomes: readonly (Outcome & { c: Case })[]): string {
  const n = outcomes.length;
  const count = (test: (o: Outcome) => boolean): number => outcomes.filter(test).length;
  const verified = kind.verify
    ? pct(
        count((o) => o.verified),
        n,
      )
    : '';
  const example = `\`${outcomes[0]?.c.q ?? ''}\``;
  const at1 = pct(
    count((o) => o.rank === 0),
    n,
  );
  const at5 = pct(
    count((o) => o.rank >= 0 && o.rank < 5),
    n,
  );
  const p99 = at(
    outcomes.map((o) => o.ms).sort((a, b) => a - b),
    0.99,
  );
  return `| ${kind.name} | ${example} | ${at1} | ${at5} | ${count((o) => o.empty)} | ${verified} | ${p99} |`;
}

if (import.meta.filename === process.argv[1]) await bench();
