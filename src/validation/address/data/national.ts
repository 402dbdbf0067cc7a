import { type AddressInput, emptyInput, titleCase } from '../dataset/address-input.ts';
import { type NationalLocality, nationalLocalities } from './national-localities.ts';
import { weightedType } from './generate.ts';
import { createRandom, type Random } from './prng.ts';
import { type StreetVocabulary, streetSize, streetVocabulary } from './national-streets.ts';
import { LANDMARK_STREETS, SITE_NAMES } from './street-names.ts';

/**
 * A data set with the shape of the whole G-NAF (national-shape.ts): about 16,000 localities,
 * 700,000 street-localities and 15.6 M addresses at full size, proportionally fewer for a
 * smaller `count`. Streets have a long-tailed size (Pareto), names recur Zipf-like across
 * localities, and properties are houses, unit blocks (with levels on some), shop strips,
 * ranged numbers with their aliases, lots on rural roads and named sites; 1 % of each
 * locality are PO boxes (which G-NAF itself does not hold). Streams: only one street's
 * addresses are held at a time. Same options → same addresses, same pids.
 */
export interface NationalOptions {
  readonly count: number;
  readonly seed: number;
  /** Add PO boxes and locked bags (1 % of each locality); default true. */
  readonly boxes?: boolean;
}

export const NATIONAL_FULL_SIZE = 15_600_000;
export const DEFAULT_NATIONAL: NationalOptions = { count: NATIONAL_FULL_SIZE, seed: 20_240_201 };

interface Street {
  readonly name: string;
  readonly type: string;
  readonly suffix: string | null;
}

interface Context {
  readonly random: Random;
  readonly vocabulary: StreetVocabulary;
  readonly out: AddressInput[];
  sequence: number;
}

export function* generateNational(options: NationalOptions = DEFAULT_NATIONAL): Generator<AddressInput> {
  const random = createRandom(options.seed);
  const vocabulary = streetVocabulary(createRandom(options.seed ^ 0x5eed));
  const context: Context = { random, vocabulary, out: [], sequence: 0 };
  for (const locality of nationalLocalities(options.count, NATIONAL_FULL_SIZE, random)) {
    const boxes = options.boxes === false ? 0 : Math.floor(locality.target / 100);
    yield* localityStreets(context, locality, locality.target - boxes);
    yield* localityBoxes(locality, boxes);
  }
}

function* localityStreets(c: Context, locality: NationalLocality, target: number): Generator<AddressInput> {
  const used = new Set<string>();
  const landmarks = locality.real ? [...(LANDMARK_STREETS[`${locality.name} ${locality.state}`] ?? [])] : [];
  const rural = locality.target < 600;
  let made = 0;
  while (made < target) {
    const landmark = landmarks.shift();
    const street = landmark ? landmarkStreet(landmark, used) : pickStreet(c, used);
    const budget = streetSize(c.random, target - made);
    layOut(c, locality, street, landmark ? Math.min(target - made, Math.max(budget, 60)) : budget, rural);
    made += c.out.length;
    yield* c.out;
    c.out.length = 0;
  }
}

function landmarkStreet(street: string, used: Set<string>): Street {
  const words = street.split(' ');
  const type = words.length > 1 ? words.pop()! : 'Street';
  used.add(`${words.join(' ')}|${type}|null`);
  return { name: words.join(' '), type, suffix: null };
}

function pickStreet(c: Context, used: Set<string>): Street {
  for (let tries = 0; ; tries++) {
    const name = c.vocabulary.pick(c.random);
    const type = weightedType(c.random);
    const suffix = c.random.chance(0.02) ? c.random.pick(['North', 'South', 'East', 'West']) : null;
    const key = `${name}|${type}|${suffix}`;
    if (used.has(key) && tries < 50) continue;
    used.add(key);
    return { name, type, suffix };
  }
}

/** Numbers a street odd or even from one end, property by property, until `budget` addresses. */
function layOut(c: Context, locality: NationalLocality, street: Street, budget: number, ruralLocality: boolean): void {
  const { random } = c;
  const rural = ruralLocality && random.chance(0.3);
  const bearing = random.next() * Math.PI * 2;
  const spread = 0.004 + Math.min(0.05, Math.sqrt(locality.target) * 0.0004);
  const origin = [
    locality.latitude + (random.next() - 0.5) * spread,
    locality.longitude + (random.next() - 0.5) * spread,
  ];
  const step = [Math.sin(bearing) * 0.00012, Math.cos(bearing) * 0.00012];
  const parcels = random.chance(0.5) ? random.int(10_000, 1_199_999) : 0;
  for (let n = random.int(1, 2); c.out.length < budget; n += rural ? random.int(2, 20) : 2) {
    const at = (base: AddressInput): AddressInput => {
      base.latitude = round6(origin[0]! + step[0]! * n);
      base.longitude = round6(origin[1]! + step[1]! * n);
      return base;
    };
    n += property(c, locality, street, n, rural, budget - c.out.length, at, parcels);
  }
}

/** One street number's addresses; returns how many extra numbers it spans. */
function property(
  c: Context,
  locality: NationalLocality,
  street: Street,
  n: number,
  rural: boolean,
  budget: number,
  at: (base: AddressInput) => AddressInput,
  parcels: number,
): number {
  const { random, out } = c;
  const make = (): AddressInput => at(address(nextPid(c, locality), locality, street));
  const parcel = (lot: number, plan: string): string | null => (parcels ? `${lot}/${plan}${parcels}` : null);
  if (rural && random.chance(0.4)) {
    const a = make();
    a.lot = String(n);
    a.legalParcelId = parcel(n, 'DP');
    out.push(a);
    return 0;
  }
  const number = random.chance(0.02) ? `${n}${random.pick(['A', 'B'])}` : String(n);
  const roll = random.next();
  if (roll < 0.035 && budget > 2) {
    units(c, make, number, Math.min(budget, unitCount(random)), parcels ? parcels + n : 0);
    return 0;
  }
  if (roll < 0.05 && budget > 2) {
    for (let s = 1; s <= Math.min(budget, random.int(2, 8)); s++) {
      const a = make();
      a.numberFirst = number;
      a.flatType = 'Shop';
      a.flat = String(s);
      out.push(a);
    }
    return 0;
  }
  if (roll < 0.09 && budget > 2) {
    ranged(make, out, n, parcel(n, 'DP'));
    return 4;
  }
  const a = make();
  a.numberFirst = number;
  a.legalParcelId = parcel(n, 'DP');
  if (roll > 0.995) a.siteName = titleCase(`${locality.name} ${random.pick(SITE_NAMES)}`);
  out.push(a);
  return 0;
}

/** Most blocks have a handful of units; one in twenty is a tower of up to 300. */
function unitCount(random: Random): number {
  return random.chance(0.05) ? random.int(20, 300) : random.int(2, 14);
}

function units(c: Context, make: () => AddressInput, number: string, count: number, plan: number): void {
  const { random, out } = c;
  const perLevel = random.int(2, 8);
  const levels = random.chance(0.25);
  const flatType = random.pick(['Unit', 'Unit', 'Unit', 'Apartment', 'Flat']);
  const site = count > 60 && random.chance(0.3) ? `${random.pick(['The', 'Park', 'Harbour', 'Central'])} Towers` : null;
  for (let u = 1; u <= count; u++) {
    const a = make();
    const level = Math.ceil(u / perLevel) - 1;
    a.numberFirst = number;
    a.flatType = flatType;
    a.flat = String(u);
    a.siteName = site;
    if (levels) {
      a.levelType = level === 0 ? 'Ground' : 'Level';
      a.level = level === 0 ? null : String(level);
    }
    a.legalParcelId = plan ? `${u}/SP${plan}` : null;
    out.push(a);
  }
}

/** "11-15 Neville Street" as principal, with "11" and "13" as its aliases. */
function ranged(make: () => AddressInput, out: AddressInput[], n: number, parcel: string | null): void {
  const principal = make();
  principal.numberFirst = String(n);
  principal.numberLast = String(n + 4);
  principal.legalParcelId = parcel;
  out.push(principal);
  for (const alias of [n, n + 2]) {
    const a = make();
    a.numberFirst = String(alias);
    a.aliasOfPid = principal.gnafPid;
    out.push(a);
  }
}

function nextPid(c: Context, l: NationalLocality): string {
  return `GA${l.state.padEnd(3, '_')}${710_000_000 + c.sequence++}`;
}

function address(pid: string | null, l: NationalLocality, street: Street | null): AddressInput {
  return {
    ...emptyInput(l.name, l.state, l.postcode),
    gnafPid: pid,
    streetName: street?.name ?? null,
    streetType: street?.type ?? null,
    streetSuffix: street?.suffix ?? null,
  };
}

function* localityBoxes(l: NationalLocality, count: number): Generator<AddressInput> {
  for (let i = 1; i <= count; i++) {
    const box = address(null, l, null);
    box.boxType = i % 17 === 0 ? 'Locked Bag' : 'PO Box';
    box.boxNumber = String(i);
    yield box;
  }
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
