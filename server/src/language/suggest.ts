/** "did you mean …?": the nearest known spelling of a misspelt name. */

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string
 * alignment), since `Tset` for `Test` is the commonest slip. Three reused rows.
 */
export function editDistance(a: string, b: string, rows: number[][] = [[], [], []]): number {
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        d = Math.min(d, before[j - 2] + 1);
      }
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/**
 * The candidate closest to `name`, if it is close enough to be a plausible typo: at most a
 * third of the name's letters wrong (at least one), or the same word in another letter case.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  // Names of one or two letters are too short to guess from: only a letter-case slip counts.
  const limit = name.length < 3 ? 0.5 : Math.max(1, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  const rows: number[][] = [[], [], []];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const d = candidate.toLowerCase() === lower ? 0.5 : editDistance(name, candidate, rows);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
