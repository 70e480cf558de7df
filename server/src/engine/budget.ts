/**
 * Sizes are checked against budgets before anything is allocated: a 39 KB BIF file can declare a
 * table of 10^30 entries, and a model can ask for 10^12 samples. Every allocation whose size comes
 * from the input (CPTs, factors, clique tables, counts, samples) is computed from the declarations
 * first and refused with a BudgetError that names the size and the budget.
 */
import { EngineError } from './engineError.js';

export interface Budgets {
  /** Entries of the largest single table (CPT, counts, factor): 8 bytes each. */
  maxTableEntries: number;
  /** Entries of all tables of one structure together (a network's CPTs, a junction tree's cliques). */
  maxTotalEntries: number;
  /** Samples one sampler run may draw. */
  maxSamples: number;
  /** The memory budget itself, in bytes: exact inference runs while its junction tree fits half of it. */
  memoryBytes: number;
  /**
   * Things a network file declares, each counted before it is kept: XML elements, variables, and
   * the states of one variable. Each costs a few hundred bytes as objects (an element with its
   * attributes and children, a variable with its structures for inference): 512 per MB of the
   * memory budget, 2^20 for 2 GB (a 60 MB file of `<P/>` declares 15 million).
   */
  maxDeclarations: number;
  /**
   * Classes of one classifier or states of one scored target: evaluation keeps a classes × classes
   * confusion matrix, so the square is one table (√maxTableEntries: 4,096 for 2 GB). A class column
   * of 50,000 distinct values is refused on its range before anything per class is allocated.
   */
  maxClasses: number;
}

/**
 * Results over many classes list at most this many (the most frequent), with a note of how many
 * were left out: 5,000 classes once made a 75 MB result that blocked the language server for 14 s.
 */
export const SHOWN_CLASSES = 50;

/**
 * For the default memory budget of 2 GB: one table 2^24 entries (128 MB), all tables of one
 * structure 2^26 (512 MB). Learning and propagation keep several working copies of a table
 * (counts, priors, messages), so these are a sixteenth and a quarter of the memory.
 */
export const DEFAULT_BUDGETS: Budgets = budgetsFor(2048);

/** Budgets for a memory limit in MB (see DEFAULT_BUDGETS). */
export function budgetsFor(memoryMb: number, maxSamples = 1e8): Budgets {
  const entries = (memoryMb * 1024 * 1024) / 8;
  return {
    maxTableEntries: Math.max(1024, Math.floor(entries / 16)),
    maxTotalEntries: Math.max(4096, Math.floor(entries / 4)),
    maxSamples,
    memoryBytes: memoryMb * 1024 * 1024,
    maxDeclarations: Math.max(1024, Math.floor(memoryMb * 512)),
    maxClasses: Math.floor(Math.sqrt(Math.max(1024, Math.floor(entries / 16)))),
  };
}

export class BudgetError extends EngineError {
  override name = 'BudgetError';
}

/** The number of entries of a table over variables of these cardinalities (may be Infinity). */
export function tableEntries(cardinalities: Iterable<number>): number {
  let n = 1;
  for (const k of cardinalities) n *= k;
  return n;
}

/** Throws BudgetError when `size` is over `limit`; `what` says what would have been allocated. */
export function requireWithin(what: string, size: number, limit: number, unit = 'entries'): void {
  if (size <= limit) return;
  throw new BudgetError(`${what} needs ${count(size)} ${unit}, over the budget of ${count(limit)}`);
}

function count(n: number): string {
  if (!Number.isFinite(n)) return 'more than 10^308';
  return n < 1e12 ? n.toLocaleString('en-US') : n.toExponential(2).replace('e+', ' × 10^');
}
