/**
 * What a statement declares, for both resolvers of this folder: the checker's symbol table
 * (`symbols.ts`, strict, with the host's files) and the editor's name index
 * (`nameResolution.ts`, lenient, from the AST alone). One table of declaring statements and
 * one reading of a classifier's definition, so the two cannot drift apart.
 */
import type * as A from '../ast.js';
import type { GlobalKind } from './types.js';

/** The kind of name each declaring statement puts in the file-wide namespace. */
export const declaredKinds: Partial<Record<A.Statement['kind'], GlobalKind>> = {
  hypotheses: 'hypotheses',
  network: 'network',
  import: 'import',
  data: 'data',
  corpus: 'corpus',
  classifier: 'classifier',
  mixture: 'mixture',
  error: 'unknown',
};

/** Top-level statements and those inside networks, in file order (an array: a generator costs an object per step). */
export function allStatements(file: A.BayesFile): A.Statement[] {
  const all: A.Statement[] = [];
  for (const s of file.statements) {
    all.push(s);
    if (s.kind === 'network') for (const inner of s.statements) all.push(inner);
  }
  return all;
}

/** The data set a classifier learns from: its definition's first unnamed argument, when a name. */
export function trainingData(decl: A.ClassifierDecl): A.Name | undefined {
  const source = decl.definition.args.find((a) => !a.name)?.value;
  return source?.kind === 'ref' ? source.name : undefined;
}

/** The variable a classifier predicts: its definition's `target:` argument, when a name. */
export function classifierTarget(decl: A.ClassifierDecl): A.Name | undefined {
  const target = decl.definition.args.find((a) => a.name?.text === 'target')?.value;
  return target?.kind === 'ref' ? target.name : undefined;
}
