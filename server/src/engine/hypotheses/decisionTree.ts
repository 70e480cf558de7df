/**
 * Probabilistic decision trees as hypotheses (Poole §10.2.3): internal nodes test a condition
 * `attribute = value`, leaves hold a distribution over the target's values. A tree is scored by
 * the likelihood of the examples P(E|t), by its description length under Poole's tree code
 * (ex. 10.7), and by BIC.
 */
import { EngineError } from '../engineError.js';
import { attributeIndex, MISSING, type CategoricalDataset } from '../categoricalData.js';
import { bicBits, bitsOfLogProbability } from './mdl.js';

export type ProbabilisticTree =
  | { kind: 'leaf'; /** P(target = values[i]) at this leaf. */ distribution: number[] }
  | { kind: 'split'; attribute: string; value: string; ifTrue: ProbabilisticTree; ifFalse: ProbabilisticTree };

export interface TreeLikelihood {
  /** ln P(E|t). */
  logLikelihood: number;
  likelihood: number;
  bits: number;
  leaves: number;
  /** Free parameters |t|: (k − 1) per leaf for a k-valued target. */
  parameters: number;
}

/** Which leaf each example reaches (leaves numbered depth-first, true branch first). */
function leafOf(
  tree: ProbabilisticTree,
  data: CategoricalDataset,
  row: number,
): { leaf: number; node: ProbabilisticTree & { kind: 'leaf' } } {
  let node = tree,
    leaf = 0;
  while (node.kind === 'split') {
    const a = attributeIndex(data, node.attribute);
    const code = data.columns[a]![row]!;
    if (code === MISSING)
      throw new EngineError(`example ${row + 1} has no value for ${node.attribute}, which the tree tests`);
    const goTrue = data.attributes[a]!.values[code] === node.value;
    if (!goTrue) leaf += countLeaves(node.ifTrue);
    node = goTrue ? node.ifTrue : node.ifFalse;
  }
  return { leaf, node };
}

export function countLeaves(tree: ProbabilisticTree): number {
  return tree.kind === 'leaf' ? 1 : countLeaves(tree.ifTrue) + countLeaves(tree.ifFalse);
}

export function treeLikelihood(tree: ProbabilisticTree, data: CategoricalDataset, target: string): TreeLikelihood {
  const t = attributeIndex(data, target);
  const k = data.attributes[t]!.values.length;
  validateTree(tree, k);
  let logLikelihood = 0;
  for (let r = 0; r < data.rowCount; r++) {
    const y = data.columns[t]![r]!;
    if (y === MISSING) continue;
    logLikelihood += Math.log(leafOf(tree, data, r).node.distribution[y]!);
  }
  const leaves = countLeaves(tree);
  return {
    logLikelihood,
    likelihood: Math.exp(logLikelihood),
    bits: bitsOfLogProbability(logLikelihood),
    leaves,
    parameters: leaves * (k - 1),
  };
}

function validateTree(tree: ProbabilisticTree, k: number): void {
  if (tree.kind === 'split') {
    validateTree(tree.ifTrue, k);
    validateTree(tree.ifFalse, k);
    return;
  }
  if (tree.distribution.length !== k)
    throw new EngineError(`a leaf gives ${tree.distribution.length} probabilities for ${k} target values`);
  const sum = tree.distribution.reduce((s, p) => s + p, 0);
  if (tree.distribution.some((p) => !(p >= 0)) || Math.abs(sum - 1) > 1e-9)
    throw new EngineError(`a leaf's probabilities must be ≥ 0 and sum to 1, got ${tree.distribution.join(', ')}`);
}

/** The same tree with each leaf's distribution set to the empirical frequencies of the examples reaching it (the most likely leaves). */
export function fitLeaves(
  tree: ProbabilisticTree,
  data: CategoricalDataset,
  target: string,
  pseudoCount = 0,
): ProbabilisticTree {
  const t = attributeIndex(data, target);
  const k = data.attributes[t]!.values.length;
  const counts = Array.from({ length: countLeaves(tree) }, () => new Array<number>(k).fill(pseudoCount));
  for (let r = 0; r < data.rowCount; r++) {
    const y = data.columns[t]![r]!;
    if (y !== MISSING) counts[leafOf(tree, data, r).leaf]![y]!++;
  }
  let next = 0;
  const rebuild = (node: ProbabilisticTree): ProbabilisticTree => {
    if (node.kind === 'split') {
      const ifTrue = rebuild(node.ifTrue);
      return { ...node, ifTrue, ifFalse: rebuild(node.ifFalse) };
    }
    const c = counts[next++]!,
      n = c.reduce((s, x) => s + x, 0);
    return { kind: 'leaf', distribution: n === 0 ? c.map(() => 1 / k) : c.map((x) => x / n) };
  };
  return rebuild(tree);
}

export interface TreeCode {
  /** Bits to name a condition: log2 of the number of possible conditions. */
  conditionBits: number;
  /** Bits per leaf probability parameter. */
  probabilityBits: number;
}

/**
 * Poole's code (ex. 10.7): a leaf is 0 followed by its probabilities, a split is 1 followed by the
 * condition, the false subtree and the true subtree. Defaults: a condition is one of the
 * `attribute = value` tests over the input attributes (a Boolean attribute counts once) and a
 * probability is one of the |E| + 1 empirical frequencies, log2(|E| + 1) bits.
 */
export function defaultTreeCode(data: CategoricalDataset, target: string): TreeCode {
  const conditions = data.attributes
    .filter((a) => a.name !== target)
    .reduce((n, a) => n + (a.values.length <= 2 ? 1 : a.values.length), 0);
  return { conditionBits: Math.log2(Math.max(1, conditions)), probabilityBits: Math.log2(data.rowCount + 1) };
}

export function treeCodeBits(tree: ProbabilisticTree, code: TreeCode): number {
  if (tree.kind === 'leaf') return 1 + (tree.distribution.length - 1) * code.probabilityBits;
  return 1 + code.conditionBits + treeCodeBits(tree.ifFalse, code) + treeCodeBits(tree.ifTrue, code);
}

export interface TreeScore extends TreeLikelihood {
  name: string;
  /** L(t) under the tree code. */
  codeBits: number;
  /** L(t) + L(E|t). */
  mdlBits: number;
  /** −log2 P(E|t) + |t| log2 |E|. */
  bicBits: number;
}

/** Scores named trees on the same examples; the smallest mdlBits / bicBits is the choice. */
export function scoreTrees(
  trees: readonly { name: string; tree: ProbabilisticTree }[],
  data: CategoricalDataset,
  target: string,
  code = defaultTreeCode(data, target),
): TreeScore[] {
  const examples = data.columns[attributeIndex(data, target)]!.filter((y) => y !== MISSING).length;
  return trees.map(({ name, tree }) => {
    const l = treeLikelihood(tree, data, target);
    const codeBits = treeCodeBits(tree, code);
    return {
      name,
      ...l,
      codeBits,
      mdlBits: codeBits + l.bits,
      bicBits: bicBits(l.logLikelihood, l.parameters, examples),
    };
  });
}
