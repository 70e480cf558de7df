/**
 * The semantic checker: names, domains, tables, networks, data and files. One pass builds the
 * symbol table, then each statement is checked by its module. Runs on every keystroke, so every
 * check is linear in the file (table completeness is linear in the parent assignments).
 */
import type * as A from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import type { CheckEnvironment } from './environment.js';
import { buildSymbols, type SymbolTable } from './references/symbols.js';
import { allStatements } from './references/declarations.js';
import { Reporter } from './reporter.js';
import type { CheckContext } from './check/context.js';
import { checkTables } from './check/tables.js';
import { checkCycles } from './check/cycles.js';
import { checkDynamic } from './check/dynamic.js';
import { checkCorpus, checkData } from './check/data.js';
import { checkClassifier, checkHypotheses, checkMixture } from './check/declarations.js';
import { checkExpect, checkLearn, checkObserve, checkQuery } from './check/queries.js';
import { checkDecisions } from './check/decisions.js';

export interface CheckOutput {
  diagnostics: Diagnostic[];
  symbols: SymbolTable;
}

export function check(file: A.BayesFile, env: CheckEnvironment): CheckOutput {
  const report = new Reporter();
  const symbols = buildSymbols(file, env, report);
  const ctx: CheckContext = { symbols, env, report };
  checkTables(ctx);
  checkCycles(ctx);
  checkDynamic(ctx);
  checkData(ctx);
  checkDecisions(ctx, file);
  for (const s of allStatements(file)) checkStatement(ctx, s);
  return { diagnostics: report.diagnostics, symbols };
}

function checkStatement(ctx: CheckContext, s: A.Statement): void {
  switch (s.kind) {
    case 'hypotheses':
      return checkHypotheses(ctx, s);
    case 'corpus':
      return checkCorpus(ctx, s);
    case 'observe':
      return checkObserve(ctx, s);
    case 'learn':
      return checkLearn(ctx, s);
    case 'classifier':
      return checkClassifier(ctx, s);
    case 'mixture':
      return checkMixture(ctx, s);
    case 'queryStatement':
      return checkQuery(ctx, s.query);
    case 'expectStatement':
      return checkExpect(ctx, s);
    default:
      return undefined; // variables, tables, data, networks, imports: checked above
  }
}
