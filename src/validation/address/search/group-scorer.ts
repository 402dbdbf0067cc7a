import type { AddressTable } from '../dataset/table.ts';
import { FIELD, type TermIndex } from './term-index.ts';
import { QUALITY, type WordMatcher } from './word-matcher.ts';

/**
 * Field bits of a group that query words matched (verification needs street and place);
 * `wrongType`: a typed street type the group does not have was tolerated.
 */
export const MATCHED = { street: 1, box: 2, locality: 4, postcode: 8, state: 16, wrongType: 32 } as const;

export interface GroupScore {
  score: number;
  fields: number;
}

/** Per street/locality/box word the query did not mention: enough to rank a unit in the named
 * suburb above the same number in a neighbouring suburb whose name only contains the word. */
const UNMATCHED_PENALTY = 3;

const FIELD_BIT: Readonly<Record<number, number>> = {
  [FIELD.street]: MATCHED.street,
  [FIELD.streetType]: 0,
  [FIELD.suffix]: 0,
  [FIELD.box]: MATCHED.box,
  [FIELD.locality]: MATCHED.locality,
  [FIELD.state]: MATCHED.state,
  [FIELD.postcode]: MATCHED.postcode,
};

/**
 * Scores one street-locality group: every query word must match one of its terms (AND, any
 * order); the score is the sum of each word's best match quality, less a penalty for every
 * street, box or locality word the query left unmatched (so "Ryde" ranks RYDE above NORTH RYDE,
 * and streets above PO boxes unless the query says "box"). One street type the group does not
 * have may go unmatched when the matcher allows it (the typo pass), scoring `QUALITY.wrongType`.
 * Returns false when some word matches nothing in the group.
 */
export function scoreGroup(
  index: TermIndex,
  matcher: WordMatcher,
  wordCount: number,
  group: number,
  out: GroupScore,
): boolean {
  let score = 0;
  let fields = 0;
  let unmatched = 0;
  let tolerated = false;
  const start = index.fwdStart[group]!;
  const end = index.fwdStart[group + 1]!;
  for (let w = 0; w < wordCount; w++) {
    let best = 0;
    for (let i = start; i < end; i++) {
      const q = matcher.quality(w, index.fwdTerms[i]!);
      if (q > best) {
        best = q;
      }
      if (q > 0) fields |= FIELD_BIT[index.fwdField[i]!] ?? 0;
    }
    if (best === 0) {
      if (tolerated || !matcher.tolerable(w) || !hasStreetType(index, start, end)) return false;
      tolerated = true;
      best = QUALITY.wrongType;
      fields |= MATCHED.wrongType;
    }
    score += best;
  }
  for (let i = start; i < end; i++) {
    const field = index.fwdField[i]!;
    if (field !== FIELD.street && field !== FIELD.locality && field !== FIELD.suffix && field !== FIELD.box) continue;
    let hit = false;
    for (let w = 0; w < wordCount && !hit; w++) hit = matcher.quality(w, index.fwdTerms[i]!) > 0;
    if (!hit) unmatched++;
  }
  out.score = score - UNMATCHED_PENALTY * unmatched;
  out.fields = fields;
  return true;
}

function hasStreetType(index: TermIndex, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (index.fwdField[i] === FIELD.streetType) return true;
  return false;
}

/** Postcode test for a flexible number ("Ryde 2112", or "Ryde 21" while typing). */
export function postcodeMatches(table: AddressTable, group: number, text: string, prefix: boolean): boolean {
  const postcode = table.pool.get(table.groups.postcode[group]!) ?? '';
  return prefix ? postcode.startsWith(text) : postcode === text;
}
