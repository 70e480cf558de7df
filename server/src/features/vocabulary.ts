/**
 * The words of the language the editor offers: statement keywords, query forms and
 * the signatures of the built-in functions and of the learning methods' options (for completion and signature help).
 */
import { LEARN_METHODS, METHOD_OPTIONS, type LearnMethodName } from '../language/learnMethods.js';

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
  'variance',
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

/** Built-in functions: after `=` / `~` / `hypotheses X =`. */
export const FUNCTIONS: Record<string, Signature> = {
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
};

/** A learning method's option block (`by em { … }`), from the table the checker and the run read too. */
function methodSignature(name: LearnMethodName): Signature {
  const { doc, options } = METHOD_OPTIONS[name];
  return { label: `${name} { ${options.map((o) => o.name).join(', ')} }`, doc, parameters: [...options] };
}

/** The option blocks of the learning methods that take options (`by em { … }`). */
export const METHOD_SIGNATURES: Record<string, Signature> = Object.fromEntries(
  LEARN_METHODS.filter((m) => METHOD_OPTIONS[m].options.length > 0).map((m) => [m, methodSignature(m)]),
);
