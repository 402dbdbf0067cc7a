/**
 * The candidate nearest to a mistyped word (`--confg` → `--config`, `gatway` → `gateway`), or
 * undefined when none is near enough to be what was meant: at most a third of the word's letters
 * edited, and at least one edit always allowed.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, with a swap of two neighbouring letters counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = distance;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** `; did you mean X?` when a candidate is near, else nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean ${near}?`;
}
