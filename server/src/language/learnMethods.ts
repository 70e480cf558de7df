/**
 * The methods of `learn N from D by METHOD { … }` and `learn structure S from D by METHOD { … }`
 * (and `query strength`'s `method:`), each with the options it takes and what they mean. One
 * table for the checker (which option names exist), the run (which apply to the method given; it
 * warns about the rest) and the editor's completion and signature help, so the three cannot
 * disagree about an option.
 */

/** How a network's tables are learnt for a fixed structure. */
export const TABLE_METHODS = ['counting', 'em', 'gradient'] as const;
/** How a structure is learnt. */
export const STRUCTURE_METHODS = ['k2', 'hillclimb', 'tabu', 'pc'] as const;
export const LEARN_METHODS = [...TABLE_METHODS, ...STRUCTURE_METHODS] as const;
export type LearnMethodName = (typeof LEARN_METHODS)[number];

export interface MethodOption {
  name: string;
  doc: string;
}

export interface LearnMethod {
  doc: string;
  options: readonly MethodOption[];
}

const ITERATIONS = { name: 'iterations', doc: 'at most this many steps (default 100)' };
const TOLERANCE = { name: 'tolerance', doc: 'stop when the log-likelihood per record gains less (default 1e-6)' };
const RESTARTS = { name: 'restarts', doc: 'random starts; the one with the highest likelihood is kept (default 1)' };
const START_SEED = { name: 'seed', doc: 'the seed of the random starts (default 1)' };
const MAX_PARENTS = { name: 'max_parents', doc: 'the most parents a node may get' };
const SEARCH_SCORE = { name: 'score', doc: 'bic (default), k2 or bdeu' };
/** BDeu's prior strength, as `bayes structure --ess`. */
const ESS = { name: 'ess', doc: "BDeu's equivalent sample size (default 1; with score: bdeu)" };
/** Background knowledge: every structure method takes it. */
const KNOWLEDGE = [
  { name: 'require', doc: '[A -> B, …]: arcs that must be present' },
  { name: 'forbid', doc: '[A -> B, …]: arcs that must not be present' },
  { name: 'tiers', doc: '[[A, B], [C], …]: earliest first; no arc from a later tier to an earlier one' },
];
export const KNOWLEDGE_OPTIONS = KNOWLEDGE.map((o) => o.name);
/** The climbs and random restarts of hillclimb and tabu. */
const CLIMBS = [
  {
    name: 'climbs',
    doc: 'climbs from the start, the later ones picking at random among equally good moves; the best is kept (default 8)',
  },
  { name: 'restarts', doc: 'random restarts from the best structure so far, perturbed (default 0)' },
  { name: 'perturb', doc: 'random arc additions, removals or reversals before each restart (default 5)' },
  { name: 'seed', doc: "seed of the climbs' ties and the perturbations (default 1)" },
];

export const METHOD_OPTIONS: Readonly<Record<LearnMethodName, LearnMethod>> = {
  counting: {
    doc: 'Counting: the frequencies of the complete records, with the tables’ priors as pseudo-counts.',
    options: [],
  },
  em: {
    doc: 'Expectation maximisation (Mitchell §6.12): missing values and hidden variables.',
    options: [ITERATIONS, TOLERANCE, START_SEED, RESTARTS],
  },
  gradient: {
    doc: 'Gradient ascent on the CPT entries (Mitchell eq. 6.25).',
    options: [{ name: 'rate', doc: 'the learning rate η (default 1)' }, ITERATIONS, TOLERANCE, START_SEED, RESTARTS],
  },
  k2: {
    doc: 'K2 structure search (Cooper & Herskovits): parents chosen greedily in a variable order.',
    options: [
      { name: 'order', doc: '[A, B, C]: the variable order parents are chosen in' },
      MAX_PARENTS,
      { name: 'score', doc: 'k2 (default), bdeu or bic' },
      ESS,
      ...KNOWLEDGE,
    ],
  },
  hillclimb: {
    doc: 'Greedy hill climbing over structures: add, remove or reverse one arc at a time.',
    options: [MAX_PARENTS, SEARCH_SCORE, ESS, ...CLIMBS, ...KNOWLEDGE],
  },
  tabu: {
    doc: 'Tabu search (Bouckaert): hill climbing that goes on past a local maximum through structures not recently visited, keeping the best.',
    options: [
      MAX_PARENTS,
      SEARCH_SCORE,
      ESS,
      { name: 'tabu', doc: 'how many recently visited structures may not be revisited (default 10)' },
      { name: 'patience', doc: 'steps allowed without a new best before stopping (default 10)' },
      ...CLIMBS,
      ...KNOWLEDGE,
    ],
  },
  pc: {
    doc: "PC-stable: conditional-independence tests remove edges, v-structures and Meek's rules orient them (a CPDAG).",
    options: [
      { name: 'alpha', doc: 'level of each independence test (default 0.05)' },
      { name: 'test', doc: 'g2 (likelihood ratio, default) or x2 (Pearson), df adjusted for empty cells' },
      { name: 'max_conditioning', doc: 'largest conditioning set (default: no limit)' },
      { name: 'score', doc: 'the score reported for the network found: bic (default), k2 or bdeu' },
      ESS,
      ...KNOWLEDGE,
    ],
  },
};

export function isLearnMethod(name: string): name is LearnMethodName {
  return (LEARN_METHODS as readonly string[]).includes(name);
}

/** The option names `method` takes (none for a name that is no method). */
export function optionsOf(method: string): string[] {
  return isLearnMethod(method) ? METHOD_OPTIONS[method].options.map((o) => o.name) : [];
}

/** Every option name of `methods`, each once, in table order. */
function optionNames(methods: readonly LearnMethodName[]): string[] {
  return [...new Set(methods.flatMap(optionsOf))];
}

/** Every option some learning method takes: what a `learn` line's options may name. */
export const LEARN_OPTIONS = optionNames(LEARN_METHODS);
/** Every option some structure method takes (`query strength` takes these and its own). */
export const STRUCTURE_OPTIONS = optionNames(STRUCTURE_METHODS);
