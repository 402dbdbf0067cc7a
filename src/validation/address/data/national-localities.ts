import { LOCALITIES, type Locality } from './localities.ts';
import { inPostcodeRange, STATE_PLAN } from './national-shape.ts';
import { PLACE_PREFIXES, PLACE_SUFFIXES, syllableName } from './national-names.ts';
import type { Random } from './prng.ts';
import { STREET_NAMES } from './street-names.ts';
import { STATE_CODES, type StateCode } from './vocabulary.ts';

export interface NationalLocality {
  readonly name: string;
  readonly state: StateCode;
  readonly postcode: string;
  readonly latitude: number;
  readonly longitude: number;
  /** How many addresses the generator puts in it (boxes included). */
  readonly target: number;
  /** One of the real localities of localities.ts (its landmark streets are laid out first). */
  readonly real: boolean;
}

interface Draft extends Omit<NationalLocality, 'target'> {
  readonly weight: number;
}

/**
 * The localities of a national data set of `count` addresses: about 16,000 at full size and
 * proportionally fewer below, state by state as STATE_PLAN shares them. The real localities come
 * first (largest first); the rest are named from them and from syllables (BONDI HEIGHTS, MOUNT
 * WONGABIN, KURRAGONG), placed near the locality they are named from, with a postcode near its
 * own. Sizes are log-normal (a few suburbs of tens of thousands, many hamlets of a few dozen).
 */
export function nationalLocalities(count: number, fullSize: number, random: Random): NationalLocality[] {
  const taken = new Set<string>();
  const drafts = STATE_CODES.map((state) => stateLocalities(state, count, fullSize, random, taken));
  const shareSum = STATE_CODES.reduce((sum, s) => sum + STATE_PLAN[s].addresses, 0);
  const weighted = drafts.flatMap((list, i) => {
    const stateWeight = list.reduce((sum, d) => sum + d.weight, 0);
    const share = STATE_PLAN[STATE_CODES[i]!].addresses / shareSum;
    return list.map((d) => ({ draft: d, weight: (share * d.weight) / stateWeight }));
  });
  let before = 0;
  let weightSoFar = 0;
  const out: NationalLocality[] = [];
  for (const { draft, weight } of weighted) {
    weightSoFar += weight;
    const upTo = Math.round(count * weightSoFar);
    const { weight: _w, ...rest } = draft;
    if (upTo > before) out.push({ ...rest, target: upTo - before });
    before = upTo;
  }
  return out;
}

/** Names are unique within a state; one in seven recurs from another state (Richmond, Epping). */
function stateLocalities(
  state: StateCode,
  count: number,
  fullSize: number,
  random: Random,
  taken: Set<string>,
): Draft[] {
  const quota = Math.max(1, Math.round((STATE_PLAN[state].localities * count) / fullSize));
  const real = LOCALITIES.filter((l) => l.state === state).sort((a, b) => b.weight - a.weight);
  const out: Draft[] = real
    .slice(0, quota)
    .map((l) => ({ ...l, real: true, weight: l.weight * 4 * logNormal(random, 0.3) }));
  const byName = new Map(out.map((d) => [d.name, d]));
  for (const d of out) taken.add(d.name);
  for (let tries = 0; out.length < quota && tries < quota * 50; tries++) {
    const [name, base] = placeName(random, out);
    if (byName.has(name) || name.length > 32 || (taken.has(name) && random.chance(0.85))) continue;
    taken.add(name);
    const draft = place(random, state, name, base ?? random.pick(real.length > 0 ? real : out));
    out.push(draft);
    byName.set(name, draft);
  }
  return out;
}

/** A new name, and the locality it is named after when there is one. */
function placeName(random: Random, existing: readonly Draft[]): [string, Draft | null] {
  const roll = random.next();
  if (roll < 0.4) return [syllableName(random), null];
  const base = existing.length > 0 && random.chance(0.6) ? random.pick(existing) : null;
  const stem = base && base.name.split(' ').length < 3 ? base.name : syllableName(random);
  if (roll < 0.78) return [`${stem} ${random.pick(PLACE_SUFFIXES)}`, base];
  if (roll < 0.92) return [`${random.pick(PLACE_PREFIXES)} ${stem}`, base];
  const street = random.pick(STREET_NAMES).toUpperCase();
  return [random.chance(0.5) ? street : `${street} ${random.pick(PLACE_SUFFIXES)}`, null];
}

/** Near the locality it is named from (a few km), else somewhere in the same region. */
function place(random: Random, state: StateCode, name: string, anchor: Locality | Draft): Draft {
  const named = name.includes(anchor.name);
  const spread = named ? 0.06 : 0.9;
  const offset = random.int(-25, 25);
  const postcode = Number(anchor.postcode) + (named ? Math.round(offset / 5) : offset);
  return {
    name,
    state,
    postcode: inPostcodeRange(state, postcode) ? String(postcode).padStart(4, '0') : anchor.postcode,
    latitude: round3(anchor.latitude + (random.next() - 0.5) * spread),
    longitude: round3(anchor.longitude + (random.next() - 0.5) * spread * 1.3),
    real: false,
    weight: logNormal(random, 1.2),
  };
}

/** exp(σ·N(0,1)), by Box–Muller. */
export function logNormal(random: Random, sigma: number): number {
  const u = 1 - random.next();
  const gauss = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
  return Math.exp(sigma * gauss);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
