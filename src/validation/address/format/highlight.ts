import { escapeHtml } from '#common';
import type { ParsedQuery, QueryWord } from '../search/query.ts';
import { withinOneEdit } from '../search/edit-distance.ts';
import { normalizeText } from '../search/normalize.ts';

const OPEN = "<span class='af_hl'>";
const CLOSE = '</span>';

/**
 * `highlighted_full_address`: words of the address that a query word matched are wrapped in
 * `<span class='af_hl'>…</span>` (only the typed part of a word still being typed); numbers
 * the query named are wrapped too. Address text is ours (no markup), but an imported G-NAF
 * release is data from outside: the text between the spans goes through the one HTML escaper.
 */
export function highlight(fullAddress: string, query: ParsedQuery): string {
  const numbers = [query.number, query.unit, query.level, query.lot, ...query.flex].filter((n) => n !== null);
  return fullAddress.replace(/[A-Za-z0-9']+|[^A-Za-z0-9']+/g, (part) => {
    const word = normalizeText(part).trim();
    if (!/[a-z0-9]/.test(word)) return escapeHtml(part);
    for (const n of numbers) {
      if (word === n.text) return wrap(part, part.length);
      if (n.prefix && word.startsWith(n.text)) return wrap(part, n.text.length);
    }
    for (const w of query.words) {
      if (word === w.text || w.alternatives.includes(word)) return wrap(part, part.length);
      if (w.prefix && word.startsWith(w.text)) return wrap(part, w.text.length);
      if (typoOf(w, word)) return wrap(part, part.length);
    }
    return escapeHtml(part);
  });
}

/**
 * A typo search tolerates: one edit of a word of four letters or more (the first letter
 * included: "pictoria" lights Victoria), or a letter dropped from a finished three-letter word
 * ("pit" lights Pitt).
 */
function typoOf(w: QueryWord, word: string): boolean {
  if (w.text.length >= 4) return withinOneEdit(w.text, word, w.prefix);
  return w.text.length === 3 && !w.prefix && word.length === 4 && withinOneEdit(w.text, word, false);
}

/** Wraps the start of `part` that holds `length` characters of its normalised form. */
function wrap(part: string, length: number): string {
  const end = originalEnd(part, length);
  return `${OPEN}${escapeHtml(part.slice(0, end))}${CLOSE}${escapeHtml(part.slice(end))}`;
}

/** Normalising drops characters (the apostrophe of O'Connell): count only those it keeps. */
function originalEnd(part: string, length: number): number {
  let kept = 0;
  let end = 0;
  while (end < part.length && kept < length) kept += normalizeText(part[end++]!).length;
  return end;
}
