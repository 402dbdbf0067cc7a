import { type AddressInput, emptyInput, titleCase } from '../dataset/address-input.ts';
import { LOCALITIES, type Locality } from './localities.ts';
import { createRandom, type Random } from './prng.ts';
import { LANDMARK_STREETS, SITE_NAMES, STREET_NAMES, STREET_TYPE_MIX } from './street-names.ts';

/**
 * The deterministic sample data set: for each real locality (weighted by size) it lays out
 * streets from real street names and types, numbers them odd/even, and fills them with what
 * G-NAF holds: houses, apartment blocks (units, levels), shop strips, ranged numbers with an
 * alias, lots on rural roads, named sites, plus PO boxes and GPO boxes. Same seed → same data.
 */
export interface SampleOptions {
  readonly count: number;
  readonly seed: number;
}

export const DEFAULT_SAMPLE: SampleOptions = { count: 200_000, seed: 20_240_801 };

/** GPO box delivery points of the capitals (locality and postcode as Australia Post uses them). */
const GPO: Readonly<Record<string, readonly [string, string]>> = {
  SYDNEY: ['SYDNEY', '2001'],
  MELBOURNE: ['MELBOURNE', '3001'],
  'BRISBANE CITY': ['BRISBANE', '4001'],
  ADELAIDE: ['ADELAIDE', '5001'],
  PERTH: ['PERTH', '6848'],
  HOBART: ['HOBART', '7001'],
  'DARWIN CITY': ['DARWIN', '0801'],
  CITY: ['CANBERRA', '2601'],
};

interface Emitter {
  readonly random: Random;
  emit(input: AddressInput): void;
  nextPid(state: string): string;
}

export function* generateSample(options: SampleOptions = DEFAULT_SAMPLE): Generator<AddressInput> {
  const random = createRandom(options.seed);
  const buffer: AddressInput[] = [];
  let sequence = 0;
  const emitter: Emitter = {
    random,
    emit: (input) => buffer.push(input),
    nextPid: (state) => `GA${state.padEnd(3, '_')}${700_000_000 + sequence++}`,
  };
  const totalWeight = LOCALITIES.reduce((sum, l) => sum + l.weight, 0);
  let weightSoFar = 0;
  for (const locality of LOCALITIES) {
    // Cumulative rounding: the shares add up to exactly `count`.
    const before = Math.round((options.count * weightSoFar) / totalWeight);
    weightSoFar += locality.weight;
    const target = Math.round((options.count * weightSoFar) / totalWeight) - before;
    yield* localityAddresses(emitter, buffer, locality, target);
  }
}

function* localityAddresses(
  e: Emitter,
  buffer: AddressInput[],
  locality: Locality,
  target: number,
): Generator<AddressInput> {
  let made = 0;
  const boxes = Math.floor(target * 0.02);
  const used = new Set<string>();
  const landmarks = [...(LANDMARK_STREETS[`${locality.name} ${locality.state}`] ?? [])];
  while (made < target - boxes) {
    const street = landmarks.length > 0 ? landmark(landmarks.shift()!, used) : pickStreet(e.random, used);
    streetAddresses(e, locality, street, Math.min(target - boxes - made, e.random.int(8, 160)));
    made += buffer.length;
    yield* buffer.splice(0, buffer.length);
  }
  boxAddresses(e, locality, target - made);
  yield* buffer.splice(0, buffer.length);
}

interface Street {
  readonly name: string;
  readonly type: string;
  readonly suffix: string | null;
}

function landmark(street: string, used: Set<string>): Street {
  const words = street.split(' ');
  const type = words.length > 1 ? words.pop()! : 'Street';
  const name = words.join(' ');
  used.add(`${name}|${type}|null`);
  return { name, type, suffix: null };
}

/** Early names in STREET_NAMES are the common ones: squaring the roll skews towards them. */
function pickStreet(random: Random, used: Set<string>): Street {
  for (;;) {
    const roll = random.next();
    const name = STREET_NAMES[Math.floor(roll * roll * STREET_NAMES.length)]!;
    const type = weightedType(random);
    const suffix = random.chance(0.03) ? random.pick(['North', 'South', 'East', 'West']) : null;
    const key = `${name}|${type}|${suffix}`;
    if (used.has(key) && used.size < STREET_NAMES.length * 4) continue;
    used.add(key);
    return { name, type, suffix };
  }
}

/** A street type drawn with the shares of STREET_TYPE_MIX (the national generator draws the same way). */
export function weightedType(random: Random): string {
  let roll = random.int(1, 100);
  for (const [type, share] of STREET_TYPE_MIX) {
    roll -= share;
    if (roll <= 0) return titleCase(type);
  }
  return 'Street';
}

function streetAddresses(e: Emitter, locality: Locality, street: Street, budget: number): void {
  const { random } = e;
  const bearing = random.next() * Math.PI * 2;
  const offset = [random.next() * 0.03 - 0.015, random.next() * 0.03 - 0.015] as const;
  const rural = locality.weight === 1 && random.chance(0.15);
  let count = 0;
  for (let n = random.int(1, 2); count < budget; n += rural ? random.int(2, 20) : 2) {
    const base = emptyInput(locality.name, locality.state, locality.postcode);
    base.streetName = street.name;
    base.streetType = street.type;
    base.streetSuffix = street.suffix;
    base.latitude = round6(locality.latitude + offset[0] + Math.sin(bearing) * n * 0.00012);
    base.longitude = round6(locality.longitude + offset[1] + Math.cos(bearing) * n * 0.00012);
    const [emitted, span] = property(e, base, n, rural, budget - count);
    count += emitted;
    n += span;
  }
}

/** One street number's worth of addresses: [how many it emitted, extra numbers it spans]. */
function property(e: Emitter, base: AddressInput, n: number, rural: boolean, budget: number): [number, number] {
  const { random } = e;
  const add = (patch: Partial<AddressInput>): void => e.emit({ ...base, gnafPid: e.nextPid(base.state), ...patch });
  if (rural && random.chance(0.4)) {
    add({ lot: String(n), numberFirst: null });
    return [1, 0];
  }
  const number = random.chance(0.02) ? `${n}${random.pick(['A', 'B'])}` : String(n);
  const roll = random.next();
  if (roll < 0.08 && budget > 4) return [units(e, add, number, Math.min(budget, random.int(4, 40))), 0];
  if (roll < 0.11 && budget > 2) return [shops(add, number, Math.min(budget, random.int(2, 6))), 0];
  if (roll < 0.13 && budget > 1) {
    const principal = e.nextPid(base.state);
    e.emit({ ...base, gnafPid: principal, numberFirst: String(n), numberLast: String(n + 4) });
    add({ numberFirst: String(n + 2), aliasOfPid: principal });
    return [2, 4];
  }
  const site =
    roll > 0.995
      ? `${base.locality.charAt(0)}${base.locality.slice(1).toLowerCase()} ${random.pick(SITE_NAMES)}`
      : null;
  add({ numberFirst: number, siteName: site ? titleCase(site) : null });
  return [1, 0];
}

function units(e: Emitter, add: (patch: Partial<AddressInput>) => void, number: string, count: number): number {
  const perLevel = e.random.int(2, 8);
  const levels = e.random.chance(0.5);
  const flatType = e.random.pick(['Unit', 'Unit', 'Unit', 'Apartment', 'Flat']);
  for (let u = 1; u <= count; u++) {
    const level = Math.ceil(u / perLevel) - 1;
    const levelFields = levels
      ? { levelType: level === 0 ? 'Ground' : 'Level', level: level === 0 ? null : String(level) }
      : {};
    add({ numberFirst: number, flatType, flat: String(u), ...levelFields });
  }
  return count;
}

function shops(add: (patch: Partial<AddressInput>) => void, number: string, count: number): number {
  for (let s = 1; s <= count; s++) add({ numberFirst: number, flatType: 'Shop', flat: String(s) });
  return count;
}

function boxAddresses(e: Emitter, locality: Locality, count: number): void {
  const gpo = GPO[locality.name];
  for (let i = 1; i <= count; i++) {
    const kind = gpo && i % 3 === 0 ? 'GPO Box' : i % 17 === 0 ? 'Locked Bag' : 'PO Box';
    const where = kind === 'GPO Box' && gpo ? { locality: gpo[0], postcode: gpo[1] } : {};
    const input = { ...emptyInput(locality.name, locality.state, locality.postcode), ...where };
    e.emit({ ...input, gnafPid: null, boxType: kind, boxNumber: String(kind === 'GPO Box' ? 1000 + i : i) });
  }
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
