import { titleCase } from '../dataset/address-input.ts';
import { LOCALITIES } from './localities.ts';
import { FIRST_NAMES, STREET_ADJECTIVES, STREET_NOUNS, syllableName } from './national-names.ts';
import type { Random } from './prng.ts';
import { STREET_NAMES } from './street-names.ts';

/** Distinct street names at full size; real G-NAF reuses a few thousand names everywhere. */
export const STREET_VOCABULARY_SIZE = 60_000;
/** Zipf offset: the commonest name is on about 0.35 % of streets (about 2,400 at full size). */
const ZIPF_OFFSET = 40;

export interface StreetVocabulary {
  readonly names: readonly string[];
  /** A name drawn Zipf-like: rank r with probability ∝ 1 / (r + 40). */
  pick(random: Random): string;
}

/**
 * Street names ranked by how often they recur: the real common ones first (George, Church,
 * Park…), then real place names (Parramatta Road), then made-up names — surnames, syllable
 * names, "First Surname", "Old Mill", "St Johns", "Mount Wonga" — in a seeded order. Every
 * name is already in the title case the G-NAF importer produces from the upper-case file.
 */
export function streetVocabulary(random: Random, size = STREET_VOCABULARY_SIZE): StreetVocabulary {
  const seen = new Set<string>();
  const names: string[] = [];
  const add = (name: string): void => {
    const normal = titleCase(name.toUpperCase());
    if (names.length < size && !seen.has(normal)) {
      seen.add(normal);
      names.push(normal);
    }
  };
  for (const name of STREET_NAMES) add(name);
  for (const l of LOCALITIES) add(l.name);
  for (let tries = 0; names.length < size && tries < size * 20; tries++) add(madeUpName(random, names));
  const spread = (names.length + ZIPF_OFFSET) / ZIPF_OFFSET;
  return {
    names,
    pick: (r) => names[Math.min(names.length - 1, Math.floor(ZIPF_OFFSET * spread ** r.next() - ZIPF_OFFSET))]!,
  };
}

function madeUpName(random: Random, names: readonly string[]): string {
  const roll = random.next();
  const surname = (): string => names[random.int(0, Math.min(names.length, 3000) - 1)]!;
  if (roll < 0.45) return syllableName(random);
  if (roll < 0.7) return `${random.pick(FIRST_NAMES)} ${surname()}`;
  if (roll < 0.8) return `${random.pick(STREET_ADJECTIVES)} ${random.pick(STREET_NOUNS)}`;
  if (roll < 0.87) return `St ${random.pick(FIRST_NAMES)}s`;
  if (roll < 0.93) return `Mount ${syllableName(random)}`;
  return `${surname()} ${random.pick(STREET_NOUNS)}`;
}

/**
 * Addresses on one street-locality: Pareto (α 1.5, at least 7), so the median street has about
 * a dozen addresses, one in 1,600 has over a thousand, and the longest reach `max`.
 */
export function streetSize(random: Random, max: number): number {
  const size = Math.ceil(7 * (1 - random.next()) ** (-1 / 1.5));
  return Math.max(1, Math.min(max, size, 4000));
}
