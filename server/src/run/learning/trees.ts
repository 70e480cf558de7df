/**
 * Tree hypotheses (Poole §10.2.3): `tree { if A = v { … } else { P(T = t) = p } }` as the
 * engine's probabilistic decision trees, scored on a data set by likelihood, tree code and BIC.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import type { CategoricalDataset } from '../../engine/categoricalData.js';
import { scoreTrees, type ProbabilisticTree, type TreeScore } from '../../engine/hypotheses/decisionTree.js';
import { CompileError } from '../../model/compileError.js';

export function isTreeSpace(space: A.HypothesesDecl): boolean {
  return space.entries.some((e) => e.tree);
}

/** The variable the trees predict: the one their leaves give a probability of. */
function treeTarget(space: A.HypothesesDecl): A.Name {
  for (const entry of space.entries) {
    const leaf = firstLeaf(entry.tree);
    if (leaf) return leaf.prob.targets[0]!.variable;
  }
  throw new CompileError(`the trees of '${space.name.text}' have no leaf`, space.name.range);
}

function firstLeaf(tree: A.Tree | undefined): A.TreeLeaf | undefined {
  const item = tree?.items[0];
  if (!item) return undefined;
  return item.kind === 'treeLeaf' ? item : (firstLeaf(item.then) ?? firstLeaf(item.else));
}

export interface ScoredTrees {
  target: string;
  scores: TreeScore[];
  examples: number;
}

/** Scores every tree of the space on `data`; each hypothesis must be a tree. */
export function scoreTreeSpace(space: A.HypothesesDecl, data: CategoricalDataset, dataName: A.Name): ScoredTrees {
  const target = treeTarget(space);
  const column = data.attributes.find((a) => a.name === target.text);
  if (!column)
    throw new CompileError(
      `data '${dataName.text}' has no column '${target.text}', which the trees predict`,
      dataName.range,
    );
  const trees = space.entries.map((entry) => {
    if (!entry.tree)
      throw new CompileError(`'${entry.name.text}' is not a tree; a space of trees holds only trees`, entry.name.range);
    return { name: entry.name.text, tree: toTree(entry.tree, target.text, column.values, data) };
  });
  const scores = scoreTrees(trees, data, target.text);
  const t = data.attributes.indexOf(column);
  const examples = data.columns[t]!.filter((y) => y >= 0).length;
  return { target: target.text, scores, examples };
}

function toTree(
  tree: A.Tree,
  target: string,
  targetValues: readonly string[],
  data: CategoricalDataset,
): ProbabilisticTree {
  if (tree.items.length !== 1) throw new CompileError('a tree holds one leaf or one if/else', tree.range);
  const item = tree.items[0]!;
  if (item.kind === 'treeLeaf') return { kind: 'leaf', distribution: leafDistribution(item, target, targetValues) };
  if (!item.else) throw new CompileError('this `if` needs an `else`: every example must reach a leaf', item.range);
  const attribute = data.attributes.find((a) => a.name === item.test.variable.text);
  if (!attribute)
    throw new CompileError(
      `the data has no column '${item.test.variable.text}' for this test`,
      item.test.variable.range,
    );
  const value = valueText(item.test.value);
  if (value === undefined || !attribute.values.includes(value)) {
    throw new CompileError(
      `the test needs a value of ${attribute.name} (${attribute.values.join(', ')})`,
      item.test.range,
    );
  }
  return {
    kind: 'split',
    attribute: attribute.name,
    value,
    ifTrue: toTree(item.then, target, targetValues, data),
    ifFalse: toTree(item.else, target, targetValues, data),
  };
}

/** `P(Action = reads) = 9/11` at a two-valued target: the other value has the rest. */
function leafDistribution(leaf: A.TreeLeaf, target: string, values: readonly string[]): number[] {
  const [assignment, ...more] = leaf.prob.targets;
  if (!assignment || more.length > 0 || leaf.prob.conditions.length > 0 || assignment.variable.text !== target) {
    throw new CompileError(`a leaf gives P(${target} = v) = p`, leaf.prob.range);
  }
  if (values.length !== 2)
    throw new CompileError(
      `a leaf's single probability needs a two-valued ${target}, which has ${values.length} values`,
      leaf.range,
    );
  const i = values.indexOf(valueText(assignment.value) ?? '');
  if (i < 0) throw new CompileError(`the leaf needs a value of ${target} (${values.join(', ')})`, assignment.range);
  const p = leaf.value.value;
  const distribution = [0, 0];
  distribution[i] = p;
  distribution[1 - i] = 1 - p;
  return distribution;
}

/**
 * What each tree of the space predicts for one new instance (`{ Length: short, Thread: new }`):
 * P(target = v | t, x) at the leaf x reaches, for the Bayes optimal classifier over trees.
 */
export function treePredictions(
  space: A.HypothesesDecl,
  data: CategoricalDataset,
  instance: ReadonlyMap<string, string>,
  range: A.Name['range'],
): { target: string; values: string[]; predictions: number[][] } {
  const target = treeTarget(space);
  const column = data.attributes.find((a) => a.name === target.text);
  if (!column) throw new CompileError(`the data has no column '${target.text}', which the trees predict`, range);
  const predictions = space.entries.map((entry) => {
    if (!entry.tree) {
      throw new CompileError(`'${entry.name.text}' is not a tree; a space of trees holds only trees`, entry.name.range);
    }
    let node = toTree(entry.tree, target.text, column.values, data);
    while (node.kind === 'split') {
      const value = instance.get(node.attribute);
      if (value === undefined) {
        const example = `{ ${node.attribute}: ${node.value} }`;
        throw new CompileError(`tree '${entry.name.text}' tests ${node.attribute}: give it, e.g. ${example}`, range);
      }
      node = value === node.value ? node.ifTrue : node.ifFalse;
    }
    return node.distribution;
  });
  return { target: target.text, values: [...column.values], predictions };
}
