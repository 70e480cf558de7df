/** "did you mean …?": the nearest known spelling of a misspelt name. */

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string
 * alignment), since `Tset` for `Test` is the commonest slip. Three reused rows. With `bound`,
 * it stops as soon as the distance must exceed it (then returning `bound + 1`): a candidate far
 * from the name costs a few rows, not its whole table.
 */
export function editDistance(a: string, b: string, rows: number[][] = [[], [], []], bound = Infinity): number {
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  let previousSmallest = 0;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let smallest = i;
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
      if (d < smallest) smallest = d;
    }
    // A transposition reaches back two rows: stop only when both rows are past the bound.
    if (smallest > bound && previousSmallest > bound) return bound + 1;
    previousSmallest = smallest;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/**
 * How far a plausible typo may be from `name`: a third of its letters (at least one); only a case
 * slip for one or two letters.
 */
function typoLimit(name: string): number {
  return name.length < 3 ? 0.5 : Math.max(1, Math.floor(name.length / 3));
}

/**
 * The candidate closest to `name`, if it is close enough to be a plausible typo: at most a
 * third of the name's letters wrong (at least one), or the same word in another letter case.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = typoLimit(name);
  const lower = name.toLowerCase();
  const rows: number[][] = [[], [], []];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const d =
      candidate.toLowerCase() === lower ? 0.5 : editDistance(name, candidate, rows, Math.min(limit, bestDistance));
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * Names to suggest from, indexed once: by letter case (a case slip is found in one look-up)
 * and by length (only names within the typo limit of the length are compared).
 */
export class NameIndex {
  private readonly byLength = new Map<number, string[]>();
  private readonly byLower = new Map<string, string>();
  readonly names: ReadonlySet<string>;

  constructor(names: Iterable<string>) {
    const all = new Set(names);
    this.names = all;
    for (const n of all) {
      const bucket = this.byLength.get(n.length);
      if (bucket) bucket.push(n);
      else this.byLength.set(n.length, [n]);
      const lower = n.toLowerCase();
      if (!this.byLower.has(lower)) this.byLower.set(lower, n);
    }
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  /** As `nearestName`, spending at most what is left of `budget` (one unit per name compared). */
  nearest(name: string, budget: SuggestionBudget): string | undefined {
    const lower = this.byLower.get(name.toLowerCase());
    if (lower !== undefined && lower !== name) return lower;
    const limit = typoLimit(name);
    if (limit < 1) return undefined;
    const rows: number[][] = [[], [], []];
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (let delta = 0; delta <= limit; delta++) {
      for (const length of delta === 0 ? [name.length] : [name.length - delta, name.length + delta]) {
        const bucket = this.byLength.get(length);
        if (!bucket || delta >= bestDistance) continue;
        for (const candidate of bucket) {
          if (budget.left <= 0) return undefined; // the search did not finish: what it found may not be the nearest
          budget.left--;
          if (candidate === name) continue;
          const d = editDistance(name, candidate, rows, bestDistance - 1);
          if (d < bestDistance) {
            bestDistance = d;
            best = candidate;
          }
          if (bestDistance === 1) return best;
        }
      }
    }
    return best;
  }
}

/**
 * What one check may spend on "did you mean" suggestions, in names compared. A file with
 * thousands of misspellings among thousands of names would otherwise take quadratic time;
 * past the budget the errors still come, without a suggestion. Indexes are built once per check.
 */
export class SuggestionBudget {
  left: number;
  private readonly indexes = new Map<unknown, NameIndex>();

  constructor(names = SUGGESTION_BUDGET) {
    this.left = names;
  }

  /** The index of the names `key` stands for, built by `names` the first time. */
  index(key: unknown, names: () => Iterable<string>): NameIndex {
    let index = this.indexes.get(key);
    if (!index) {
      index = new NameIndex(names());
      this.indexes.set(key, index);
    }
    return index;
  }
}

/**
 * Names compared per check: well under a tenth of a second (a suggestion among 20,000 names of one
 * length compares up to 20,000).
 */
export const SUGGESTION_BUDGET = 150_000;
