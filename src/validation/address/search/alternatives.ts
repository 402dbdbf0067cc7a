import { NAME_SYNONYMS, STATE_NAMES, STREET_TYPES } from '../data/vocabulary.ts';

/**
 * Abbreviations both ways. The index holds street types in full (G-NAF stores them so) and
 * states as codes, so a typed abbreviation expands to the full type and a typed state name
 * to its code; name words (St/Saint, Mt/Mount) expand both ways because G-NAF keeps them
 * as written. A word's own spelling always stays one of its alternatives.
 */
const ALTERNATIVES = new Map<string, string[]>();

function addAlternative(word: string, alternative: string): void {
  const list = ALTERNATIVES.get(word) ?? [];
  if (!list.includes(alternative) && alternative !== word) list.push(alternative);
  ALTERNATIVES.set(word, list);
}

for (const [full, abbreviations] of Object.entries(STREET_TYPES)) {
  for (const abbreviation of abbreviations) addAlternative(abbreviation, full.toLowerCase());
}
for (const group of NAME_SYNONYMS) {
  for (const word of group) for (const other of group) addAlternative(word, other);
}
for (const [code, name] of Object.entries(STATE_NAMES)) {
  if (!name.includes(' ')) addAlternative(name, code.toLowerCase());
}

/** Street types in full and abbreviated ("road", "rd"): the words a wrong street type is typed as. */
export const STREET_TYPE_WORDS: ReadonlySet<string> = new Set(
  Object.entries(STREET_TYPES).flatMap(([full, abbreviations]) => [full.toLowerCase(), ...abbreviations]),
);

export function alternativesOf(word: string): readonly string[] {
  return ALTERNATIVES.get(word) ?? [];
}

/** Multi-word state names, longest first, replaced by their code before matching. */
export const STATE_PHRASES: readonly (readonly [readonly string[], string])[] = Object.entries(STATE_NAMES)
  .filter(([, name]) => name.includes(' '))
  .map(([code, name]) => [name.split(' '), code.toLowerCase()] as const)
  .sort((a, b) => b[0].length - a[0].length);
