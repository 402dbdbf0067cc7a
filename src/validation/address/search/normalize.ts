/**
 * The one text normalisation both sides of search use: lower case, accents and apostrophes
 * dropped (O'Connell → oconnell), everything else that is not a letter, digit or slash
 * becomes a separator (hyphenated names split into words).
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9/]+/g, ' ');
}

/** Words of an indexed value (no slashes in stored names). */
export function indexWords(text: string | null): string[] {
  if (!text) return [];
  return normalizeText(text)
    .replace(/\//g, ' ')
    .split(' ')
    .filter((w) => w.length > 0);
}
