import { createRandom } from '../../src/validation/address/data/prng.ts';
import type { AddressDataset } from '../../src/validation/address/dataset/load.ts';
import { fullAddress, readParts } from '../../src/validation/address/format/address-parts.ts';

/**
 * The bench's realistic query mix, drawn from the data set (seeded): keystroke prefixes, the
 * whole street and locality, words in another order, a swapped pair of letters, PO boxes.
 */
export function queryMix(dataset: AddressDataset, size = 4000): string[] {
  const random = createRandom(42);
  const queries: string[] = [];
  while (queries.length < size) {
    const row = random.int(0, dataset.table.size - 1);
    queries.push(...queriesFrom(fullAddress(readParts(dataset.table, row)), random));
    if (random.chance(0.05))
      queries.push(`po box ${random.int(1, 60)} ${random.pick(['ryde', 'sydney', 'melb', 'perth', 'hobart'])}`);
  }
  return queries.slice(0, size);
}

function queriesFrom(full: string, random: ReturnType<typeof createRandom>): string[] {
  const [street = '', locality = ''] = full.replace(/^(Unit|Shop|Apartment|Flat) (\w+), /, '$2/').split(', ');
  const typed = `${street} ${locality.split(' ')[0] ?? ''}`.toLowerCase().replace('street', 'st').replace('road', 'rd');
  const out = [typed.slice(0, random.int(3, typed.length)), typed];
  const words = typed.split(' ');
  if (words.length > 2) out.push(`${words.slice(2).join(' ')} ${words.slice(0, 2).join(' ')}`);
  const name = words.find((w) => w.length >= 5);
  if (name) {
    const i = random.int(1, name.length - 2);
    out.push(typed.replace(name, name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)));
  }
  return out;
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

export function percentiles(times: number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  return { p50: at(0.5), p99: at(0.99), p999: at(0.999), max: sorted[sorted.length - 1]! };
}
