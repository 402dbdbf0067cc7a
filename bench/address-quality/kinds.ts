/**
 * The ways people type an address, each a function from the intended address to the text a
 * person would type (null when the form does not apply to that address, e.g. no word long
 * enough for a typo: the bench then draws another address).
 */
import type { Random } from '../../src/validation/address/data/prng.ts';
import { STATE_NAMES, STREET_TYPES, type StateCode } from '../../src/validation/address/data/vocabulary.ts';

/** The address a case intends, as its parts are displayed. */
export interface Intended {
  readonly row: number;
  readonly id: string;
  readonly full: string;
  readonly number: string;
  /** Unit number, for the unit kinds (null on a house). */
  readonly unit: string | null;
  /** Street name words as displayed ("Smith", "O'Connell"). */
  readonly name: string;
  readonly type: string | null;
  readonly suffix: string | null;
  readonly locality: string;
  readonly state: StateCode;
  readonly postcode: string;
  /** How many localities have a street of this name and type (street-only queries need few). */
  readonly spread: number;
}

export interface Kind {
  readonly name: string;
  /** Draws unit addresses (a unit number) rather than houses. */
  readonly unit: boolean;
  /** Verification is also asked, and its match rate is a goal. */
  readonly verify: boolean;
  type(a: Intended, random: Random): string | null;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const WRONG_TYPES = ['Street', 'Road', 'Avenue', 'Drive', 'Place', 'Court', 'Lane', 'Crescent'];
/** Shortest word a typo is made in: a one-letter change to a three-letter word is another word. */
const TYPO_MIN = 4;

const title = (text: string): string => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
const abbreviated = (type: string | null): string | null =>
  type === null ? null : title(STREET_TYPES[type.toUpperCase()]?.[0] ?? type);

function street(a: Intended, type: string | null = a.type): string {
  return [a.name, type, a.suffix].filter((x) => x !== null).join(' ');
}

interface Parts {
  readonly name?: string;
  readonly locality?: string;
}

/** Number, street (type abbreviated) and locality, as typed in a hurry ("7 Pictoria St Glebe"). */
function short(a: Intended, parts: Parts = {}): string {
  const line = [a.number, parts.name ?? a.name, abbreviated(a.type), a.suffix].filter((x) => x !== null).join(' ');
  return `${line} ${parts.locality ?? title(a.locality)}`;
}

/** The whole address, type abbreviated, no commas ("14 Smith St Ryde NSW 2112"). */
function plain(a: Intended, parts: Parts = {}): string {
  return `${short(a, parts)} ${a.state} ${a.postcode}`;
}

/** Index of the longest word (the one a typo is most likely in), or -1 below TYPO_MIN. */
function longest(words: readonly string[]): number {
  let best = -1;
  for (const [i, w] of words.entries())
    if (w.length >= TYPO_MIN && (best < 0 || w.length > words[best]!.length)) best = i;
  return best;
}

function otherLetter(random: Random, not: string): string {
  for (;;) {
    const c = random.pick([...LETTERS]);
    if (c !== not.toLowerCase()) return c;
  }
}

/** One wrong, missing, extra or swapped letter, never the first. */
function typo(word: string, random: Random): string {
  const at = random.int(1, word.length - 1);
  const op = random.int(0, 3);
  if (op === 0) return word.slice(0, at) + otherLetter(random, word[at]!) + word.slice(at + 1);
  if (op === 1) return word.slice(0, at) + word.slice(at + 1);
  if (op === 2) return word.slice(0, at) + random.pick([...LETTERS]) + word.slice(at);
  const i = Math.min(at, word.length - 2);
  if (word[i] === word[i + 1]) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/** A typo in the longest word of `text`, or null when none is long enough. */
function typoIn(text: string, random: Random, edit = typo): string | null {
  const words = text.split(' ');
  const i = longest(words);
  if (i < 0) return null;
  words[i] = edit(words[i]!, random);
  return words.join(' ');
}

/** The first letter wrong (2 in 3), missing, or swapped with the second. */
function firstLetterTypo(word: string, random: Random): string {
  const roll = random.int(0, 5);
  if (roll === 4) return word.slice(1);
  if (roll === 5 && word[0]!.toLowerCase() !== word[1]) return word[1]! + word[0]!.toLowerCase() + word.slice(2);
  return otherLetter(random, word[0]!) + word.slice(1);
}

/** "Pitt" → "Pit", "Hill" → "Hil"; a name without a double letter gets one ("Smitth"). */
function doubling(name: string, random: Random): string {
  const double = /([a-z])\1/i.exec(name);
  if (double) return name.slice(0, double.index) + name.slice(double.index + 1);
  const at = random.int(1, name.length - 1);
  return name.slice(0, at) + name[at] + name.slice(at);
}

export const KINDS: readonly Kind[] = [
  { name: 'as displayed', unit: false, verify: true, type: (a) => a.full },
  { name: 'lower case, no commas', unit: false, verify: false, type: (a) => a.full.replaceAll(',', '').toLowerCase() },
  { name: 'abbreviated type and state', unit: false, verify: true, type: (a) => plain(a) },
  {
    name: 'state name',
    unit: false,
    verify: true,
    type: (a) => `${a.number} ${street(a)}, ${title(a.locality)}, ${title(STATE_NAMES[a.state])} ${a.postcode}`,
  },
  {
    name: 'postcode for locality',
    unit: false,
    verify: false,
    type: (a) => `${a.number} ${street(a, abbreviated(a.type))} ${a.postcode}`.toLowerCase(),
  },
  {
    name: 'words reordered',
    unit: false,
    verify: false,
    type: (a, r) => {
      const s = street(a, abbreviated(a.type));
      const l = title(a.locality);
      return r.pick([
        `${l} ${a.number} ${s}`,
        `${s} ${a.number} ${l}`,
        `${l} ${a.state} ${a.postcode} ${a.number} ${s}`,
      ]);
    },
  },
  {
    name: 'last word half typed',
    unit: false,
    verify: false,
    type: (a) => {
      const words = `${a.number} ${street(a, abbreviated(a.type))} ${title(a.locality)}`.split(' ');
      const last = words.pop()!;
      return [...words, last.slice(0, Math.max(2, Math.ceil(last.length / 2)))].join(' ');
    },
  },
  {
    name: 'typo in street',
    unit: false,
    verify: false,
    type: (a, r) => {
      const name = typoIn(a.name, r);
      return name && short(a, { name });
    },
  },
  {
    name: 'typo in locality, type abbreviated',
    unit: false,
    verify: false,
    type: (a, r) => {
      const locality = typoIn(title(a.locality), r);
      return locality && short(a, { locality });
    },
  },
  {
    name: 'two typos (street and locality)',
    unit: false,
    verify: false,
    type: (a, r) => {
      const name = typoIn(a.name, r);
      const locality = typoIn(title(a.locality), r);
      return name && locality && short(a, { name, locality });
    },
  },
  {
    name: 'doubled or undoubled letter',
    unit: false,
    verify: false,
    type: (a, r) => short(a, { name: doubling(a.name, r) }),
  },
  {
    name: 'typo in first letter',
    unit: false,
    verify: false,
    type: (a, r) => {
      const name = typoIn(a.name, r, firstLetterTypo);
      return name && short(a, { name });
    },
  },
  {
    name: 'wrong street type',
    unit: false,
    verify: false,
    type: (a, r) => {
      const wrong = r.pick(WRONG_TYPES.filter((t) => t !== a.type));
      return `${a.number} ${street(a, r.chance(0.5) ? wrong : abbreviated(wrong))} ${title(a.locality)}`;
    },
  },
  {
    name: 'number run into street',
    unit: false,
    verify: false,
    type: (a) => `${a.number}${street(a, abbreviated(a.type))} ${title(a.locality)}`.toLowerCase(),
  },
  {
    name: 'state and postcode run together',
    unit: false,
    verify: false,
    type: (a) => `${a.number} ${street(a, abbreviated(a.type))} ${title(a.locality)} ${a.state}${a.postcode}`,
  },
  { name: 'with ", Australia"', unit: false, verify: false, type: (a) => `${plain(a)}, Australia` },
  {
    name: 'street and number only (rare street)',
    unit: false,
    verify: false,
    type: (a) => (a.spread <= 3 ? `${a.number} ${street(a, abbreviated(a.type))}` : null),
  },
  { name: '2/14', unit: true, verify: true, type: (a) => `${a.unit}/${plain(a)}` },
  { name: 'Unit 2 14', unit: true, verify: true, type: (a) => `Unit ${a.unit} ${plain(a)}` },
  { name: 'U2 14', unit: true, verify: true, type: (a) => `U${a.unit} ${plain(a)}` },
  { name: 'Apt 2, 14', unit: true, verify: true, type: (a) => `Apt ${a.unit}, ${plain(a)}` },
];
