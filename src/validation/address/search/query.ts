import { LEVEL_WORDS, LOT_WORDS, UNIT_WORDS } from '../data/vocabulary.ts';
import { alternativesOf, STATE_PHRASES } from './alternatives.ts';

export interface QueryWord {
  readonly text: string;
  readonly alternatives: readonly string[];
  /** The word the user is still typing: it may match a longer term. */
  readonly prefix: boolean;
}

export interface QueryNumber {
  readonly text: string;
  readonly prefix: boolean;
}

/**
 * A query split into what search matches at street level (words) and inside a street
 * (house number, unit, level, lot). Numbers typed after words are "flexible": a postcode if
 * the street's postcode matches, otherwise the house or box number ("PO Box 12", "Smith St 14").
 */
export interface ParsedQuery {
  readonly words: QueryWord[];
  number: QueryNumber | null;
  numberLast: string | null;
  unit: QueryNumber | null;
  level: QueryNumber | null;
  lot: QueryNumber | null;
  /** A level named without a number ("Ground", "Basement"): its display name. */
  levelName: string | null;
  readonly flex: QueryNumber[];
  /**
   * The other reading of a unit, level or lot word typed after a street or place word, taken
   * as a word: "Brighton Flat 6 William St" is Flat 6 of William St, or 6 William St in
   * BRIGHTON FLAT. Search tries it when the first reading finds no address with its number.
   */
  alternative: ParsedQuery | null;
}

/** Level types that stand alone without a number. */
const LEVEL_NAMES: Readonly<Record<string, string>> = {
  ground: 'Ground',
  basement: 'Basement',
  mezzanine: 'Mezzanine',
  rooftop: 'Rooftop',
};

const MAX_TOKENS = 16;

type Token =
  | { kind: 'word' | 'id'; text: string }
  | { kind: 'range'; first: string; last: string }
  | { kind: 'slash'; unit: string; rest: string };

export function parseQuery(q: string, options: { prefix: boolean; keywordsAfterWords?: boolean }): ParsedQuery {
  const text = q
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '');
  const typing = options.prefix && !/[\s,]$/.test(q);
  const tokens = dropCountry(replaceStatePhrases(tokenize(unglue(text)))).slice(0, MAX_TOKENS);
  const parsed: ParsedQuery = {
    words: [],
    number: null,
    numberLast: null,
    unit: null,
    level: null,
    lot: null,
    levelName: null,
    flex: [],
    alternative: null,
  };
  const leading: QueryNumber[] = [];
  const keywordsAfterWords = options.keywordsAfterWords ?? true;
  let keywordAfterWord = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const prefix = typing && i === tokens.length - 1;
    const nextPrefix = typing && i + 1 === tokens.length - 1;
    if (token.kind === 'range') {
      parsed.number = { text: token.first, prefix: false };
      parsed.numberLast = token.last;
      continue;
    }
    if (token.kind === 'slash') {
      parsed.unit = { text: token.unit, prefix: false };
      if (token.rest) parsed.number = { text: token.rest, prefix };
      continue;
    }
    if (
      token.kind === 'word' &&
      next?.kind === 'id' &&
      (keywordsAfterWords || parsed.words.length === 0) &&
      keywordSlot(parsed, token.text, { text: next.text, prefix: nextPrefix })
    ) {
      keywordAfterWord ||= parsed.words.length > 0;
      i++;
      continue;
    }
    if (token.kind === 'word' && !next && isKeyword(token.text) && tokens.length > 1) continue;
    if (token.kind === 'word' && LEVEL_NAMES[token.text] && !parsed.levelName && parsed.words.length === 0) {
      parsed.levelName = LEVEL_NAMES[token.text]!;
      if (next?.kind === 'word' && next.text === 'floor') i++;
      continue;
    }
    if (token.kind === 'id') {
      const glued = /^(unit|u|apt|flat|shop|level|lvl|l|lot)(\d+[a-z]?)$/.exec(token.text);
      if (glued && keywordSlot(parsed, glued[1]!, { text: glued[2]!, prefix })) continue;
      if (parsed.words.length === 0) leading.push({ text: token.text, prefix });
      else parsed.flex.push({ text: token.text, prefix });
      continue;
    }
    parsed.words.push({ text: token.text, alternatives: alternativesOf(token.text), prefix });
  }
  assignLeading(parsed, leading);
  if (keywordAfterWord) parsed.alternative = parseQuery(q, { ...options, keywordsAfterWords: false });
  return parsed;
}

/**
 * Separates a number run into the word after it ("85lake" → "85 lake") and a state run into
 * its postcode ("nsw2112" → "nsw 2112"). Three letters at least after the number, so unit
 * and house-number suffixes ("14a") and ordinals ("21st") stay whole; three or four digits
 * after the letters, so "u2" and "l3" stay the glued unit and level they are.
 */
function unglue(text: string): string {
  return text.replace(/\b(\d+)([a-z]{3,})\b/g, '$1 $2').replace(/\b([a-z]{2,})(\d{3,4})\b/g, '$1 $2');
}

/** ", Australia" pasted after the address: the country is every address's, so it is dropped. */
function dropCountry(tokens: Token[]): Token[] {
  const last = tokens.at(-1);
  const words = tokens.filter((t) => t.kind === 'word').length;
  return last?.kind === 'word' && last.text === 'australia' && words > 1 ? tokens.slice(0, -1) : tokens;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of text.split(/[^a-z0-9/-]+/)) {
    if (!raw) continue;
    const range = /^(\d+[a-z]?)-(\d+[a-z]?)$/.exec(raw);
    const slash = /^([a-z]?\d+[a-z]?)\/([a-z0-9-]*)$/.exec(raw);
    if (range) out.push({ kind: 'range', first: range[1]!, last: range[2]! });
    else if (slash) {
      const rest = /^(\d+[a-z]?)-(\d+[a-z]?)$/.exec(slash[2]!);
      out.push({ kind: 'slash', unit: slash[1]!, rest: rest ? rest[1]! : slash[2]! });
    } else {
      for (const part of raw.split(/[/-]/)) if (part) out.push({ kind: /\d/.test(part) ? 'id' : 'word', text: part });
    }
  }
  return out;
}

function replaceStatePhrases(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const phrase = STATE_PHRASES.find(([words]) =>
      words.every((w, k) => {
        const t = tokens[i + k];
        return t?.kind === 'word' && t.text === w;
      }),
    );
    if (phrase) {
      out.push({ kind: 'word', text: phrase[1] });
      i += phrase[0].length - 1;
    } else out.push(tokens[i]!);
  }
  return out;
}

function isKeyword(word: string): boolean {
  return UNIT_WORDS.has(word) || LEVEL_WORDS.has(word) || LOT_WORDS.has(word);
}

function keywordSlot(parsed: ParsedQuery, word: string, value: QueryNumber): boolean {
  if (UNIT_WORDS.has(word) && !parsed.unit) parsed.unit = value;
  else if (LEVEL_WORDS.has(word) && !parsed.level) parsed.level = value;
  else if (LOT_WORDS.has(word) && !parsed.lot) parsed.lot = value;
  else return false;
  return true;
}

/** "14 Smith" → number 14; "2 14 Smith" → unit 2, number 14 (the usual Australian order). */
function assignLeading(parsed: ParsedQuery, leading: QueryNumber[]): void {
  if (leading.length === 0) return;
  const last = leading[leading.length - 1]!;
  if (!parsed.number) parsed.number = last;
  else if (!parsed.unit) parsed.unit = last;
  if (leading.length >= 2 && !parsed.unit) parsed.unit = leading[leading.length - 2]!;
}
