/** "did you mean …?": the nearest known spelling of a misspelt name. */

/** Levenshtein distance with one reused row (the checker calls this on every keystroke). */
export function editDistance(a: string, b: string, row: number[] = []): number {
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      row[j] = Math.min(above + 1, row[j - 1] + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length];
}

/**
 * The candidate closest to `name`, if it is close enough to be a plausible typo: at most a
 * third of the name's letters wrong (at least one), or the same word in another letter case.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  // Names of one or two letters are too short to guess from: only a letter-case slip counts.
  const limit = name.length < 3 ? 0.5 : Math.max(1, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  const row: number[] = [];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const d = candidate.toLowerCase() === lower ? 0.5 : editDistance(name, candidate, row);
    if (d < bestDistance) { bestDistance = d; best = candidate; }
  }
  return bestDistance <= limit ? best : undefined;
}
