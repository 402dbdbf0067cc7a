/**
 * Bounded Damerau-Levenshtein (optimal string alignment) for distance ≤ 1: the "one typo"
 * search tolerates (a wrong, missing, extra or swapped letter). `prefix` compares `query`
 * with the best-matching prefix of `term`, for the word the user is still typing.
 */
export function withinOneEdit(query: string, term: string, prefix: boolean): boolean {
  if (prefix) {
    for (const length of [query.length - 1, query.length, query.length + 1]) {
      if (length > 0 && length <= term.length && fullWithinOne(query, term.slice(0, length))) return true;
    }
    return false;
  }
  return fullWithinOne(query, term);
}

function fullWithinOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
