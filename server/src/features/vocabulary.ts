/**
 * The words of the language the editor offers: statement keywords, query forms and
 * the signatures of the built-in functions and learning options (for completion and signature help).
 */
export const STATEMENT_KEYWORDS = [
  'variable',
  'hypotheses',
  'P',
  'network',
  'import network',
  'data',
  'corpus',
  'observe',
  'learn',
  'learn structure',
  'classifier',
  'mixture',
  'query',
  'expect',
  'decision',
  'utility',
] as const;

export const QUERY_FORMS = [
  'posterior',
  'map',
  'ml',
  'mdl',
  'optimal',
  'gibbs',
  'P',
  'mpe',
  'sensitivity',
  'independent',
  'classify',
  'evaluate',
  'mean',
  'mode',
  'interval',
  'bic',
  'likelihood',
  'learning_curve',
  'accuracy',
  'strength',
  'policy',
  'eu',
  'voi',
  'effect',
] as const;

export interface Parameter {
  name: string;
  doc: string;
}
export interface Signature {
  label: string;
  doc: string;
  parameters: Parameter[];
}

/** The options every structure search shares. */
const MAX_PARENTS: Parameter = { name: 'max_parents', doc: 'the most parents a node may get' };
const SEARCH_SCORE: Parameter = { name: 'score', doc: 'bic (default), k2 or bdeu' };

/** The climbs and random-restart options shared by hillclimb and tabu. */
const RESTART_PARAMETERS: Parameter[] = [
  {
    name: 'climbs',
    doc: 'climbs from the start, the later ones picking at random among equally good moves; the best is kept (default 8)',
  },
  { name: 'restarts', doc: 'random restarts from the best structure so far, perturbed (default 0)' },
  { name: 'perturb', doc: 'random arc additions, removals or reversals before each restart (default 5)' },
  { name: 'seed', doc: "seed of the climbs' ties and the perturbations (default 1)" },
];

/** Built-in functions (after `=` / `~` / `hypotheses X =`) and option blocks (`by em { … }`). */
export const SIGNATURES: Record<string, Signature> = {
  naive_bayes: {
    label: 'naive_bayes(data, target, smoothing)',
    doc: 'Naive Bayes classifier over a data set (Mitchell §6.9).',
    parameters: [
      { name: 'data', doc: 'the training data set' },
      { name: 'target', doc: 'the class column' },
      { name: 'smoothing', doc: 'none | laplace | m_estimate(m: 2): how P(a | v) is estimated (eq. 6.22)' },
    ],
  },
  text_naive_bayes: {
    label: 'text_naive_bayes(corpus, drop_most_frequent, min_count)',
    doc: 'Naive Bayes over text documents (Mitchell §6.10, Table 6.2).',
    parameters: [
      { name: 'corpus', doc: 'the labelled corpus' },
      { name: 'drop_most_frequent', doc: 'how many of the most frequent words to leave out of the vocabulary' },
      { name: 'min_count', doc: 'words seen fewer times are left out' },
    ],
  },
  gaussians: {
    label: 'gaussians(columns, k, sigma, weights)',
    doc: 'A mixture of k Gaussians learned by EM (Mitchell §6.12).',
    parameters: [
      { name: 'columns', doc: 'Data.x (one column) or Data[a, b] (several: full covariance)' },
      { name: 'k', doc: 'the number of components' },
      { name: 'sigma', doc: 'a known, shared standard deviation (omit to learn it)' },
      { name: 'weights', doc: 'uniform (fixed equal weights) or learned' },
    ],
  },
  Beta: {
    label: 'Beta(alpha, beta)',
    doc: 'Conjugate prior of a bool parameter.',
    parameters: [
      { name: 'alpha', doc: 'pseudo-count of true' },
      { name: 'beta', doc: 'pseudo-count of false' },
    ],
  },
  Dirichlet: {
    label: 'Dirichlet(alpha) or Dirichlet(a1, …, ak)',
    doc: 'Conjugate prior of each CPT row: alpha pseudo-counts per value, or one pseudo-count per value in domain order.',
    parameters: [
      { name: 'alpha', doc: "pseudo-count added to every value (or the first value's, with one per value)" },
    ],
  },
  m_estimate: {
    label: 'm_estimate(m, p)',
    doc: 'The m-estimate (n_c + m p) / (n + m), Mitchell eq. 6.22.',
    parameters: [
      { name: 'm', doc: 'the equivalent sample size' },
      { name: 'p', doc: 'the prior estimate; default 1/k' },
    ],
  },
  conjunctions: {
    label: 'conjunctions(attributes…)',
    doc: 'Every conjunction of attribute constraints (Mitchell ch. 2 hypothesis space).',
    parameters: [{ name: 'attributes…', doc: 'the attribute columns' }],
  },
  linear: {
    label: 'linear(formula)',
    doc: 'Linear functions; h_ML is least squares under normal noise (§6.4).',
    parameters: [{ name: 'formula', doc: 'd ~ x1 + x2' }],
  },
  logistic: {
    label: 'logistic(formula, method: newton|gradient)',
    doc:
      'Logistic functions; h_ML maximises the cross-entropy likelihood (§6.5), ' +
      "by Newton's method or gradient ascent (eq. 6.15).",
    parameters: [
      { name: 'formula', doc: 'd ~ x1 + x2' },
      { name: 'method', doc: 'newton (default) or gradient (eq. 6.15)' },
      { name: 'seed', doc: 'gradient: seed of the small random starting weights' },
      { name: 'rate', doc: 'gradient: the learning rate η' },
    ],
  },
  em: {
    label: 'em { iterations, tolerance, seed }',
    doc: 'Expectation maximisation (Mitchell §6.12).',
    parameters: [
      { name: 'iterations', doc: 'at most this many E and M steps' },
      { name: 'tolerance', doc: 'stop when the log-likelihood improves by less' },
      { name: 'seed', doc: 'the seed of the random start' },
    ],
  },
  gradient: {
    label: 'gradient { rate, iterations }',
    doc: 'Gradient ascent on the CPT entries (Mitchell eq. 6.25).',
    parameters: [
      { name: 'rate', doc: 'the learning rate η' },
      { name: 'iterations', doc: 'the number of steps' },
    ],
  },
  k2: {
    label: 'k2 { order, max_parents, score }',
    doc: 'K2 structure search.',
    parameters: [
      { name: 'order', doc: '[A, B, C]: the variable order parents are chosen in' },
      MAX_PARENTS,
      { name: 'score', doc: 'k2 (default), bdeu or bic' },
    ],
  },
  hillclimb: {
    label: 'hillclimb { max_parents, score, climbs, restarts, perturb, seed }',
    doc: 'Greedy hill climbing over structures: add, remove or reverse one arc at a time.',
    parameters: [MAX_PARENTS, SEARCH_SCORE, ...RESTART_PARAMETERS],
  },
  tabu: {
    label: 'tabu { max_parents, score, tabu, patience, climbs, restarts, perturb, seed }',
    doc: 'Tabu search (Bouckaert): hill climbing that goes on past a local maximum through structures not recently visited, keeping the best.',
    parameters: [
      MAX_PARENTS,
      SEARCH_SCORE,
      { name: 'tabu', doc: 'how many recently visited structures may not be revisited (default 10)' },
      { name: 'patience', doc: 'steps allowed without a new best before stopping (default 10)' },
      ...RESTART_PARAMETERS,
    ],
  },
  pc: {
    label: 'pc { alpha, test, max_conditioning, require, forbid, tiers }',
    doc: "PC-stable: conditional-independence tests remove edges, v-structures and Meek's rules orient them (a CPDAG).",
    parameters: [
      { name: 'alpha', doc: 'level of each independence test (default 0.05)' },
      { name: 'test', doc: 'g2 (likelihood ratio, default) or x2 (Pearson), df adjusted for empty cells' },
      { name: 'max_conditioning', doc: 'largest conditioning set (default: no limit)' },
      { name: 'require', doc: '[A -> B, …]: arcs that must be present (every structure method)' },
      { name: 'forbid', doc: '[A -> B, …]: arcs that must not be present (every structure method)' },
      { name: 'tiers', doc: '[[A, B], [C], …]: earliest first; no arc from a later tier to an earlier one' },
    ],
  },
};
