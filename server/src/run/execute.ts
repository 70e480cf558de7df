/**
 * Runs a checked model: each `learn`, `query` and `expect` statement, in source order, through
 * its handler (the table is `handlers/index.ts`). Statements whose own range holds an error
 * diagnostic are skipped — their problem is already reported — and the rest still run.
 */
import {
  allStatements,
  lineStarts,
  sliceRange,
  type BayesFile,
  type CheckEnvironment,
  type ExpectStmt,
  type Range,
  type Statement,
  type SymbolTable,
} from '../language/index.js';
import { hasErrors, type Diagnostic } from '../language/diagnostics.js';
import type { ExpectResult, NotEvaluated, ResultEntry } from '../protocol/runResult.js';
import {
  handlerKey,
  type HandlerContext,
  type HandlerOutput,
  type HandlerTable,
  type RunnableStatement,
} from './handlerContext.js';
import { HANDLERS } from './handlers/index.js';
import { networkResults } from './networkResults.js';
import { sequenceResults } from './sequenceResults.js';
import { comparisonHolds } from './compare.js';
import { CompileError } from '../model/compileError.js';
import { EngineError } from '../engine/engineError.js';
import { CancelledError } from '../engine/cancellation.js';

export interface ExecuteOptions {
  /** The document text: results quote their statement. */
  text: string;
  symbols: SymbolTable;
  /** Diagnostics from parsing and checking; statements with errors in their range are skipped. */
  diagnostics: readonly Diagnostic[];
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /** Which handler answers each form (tests put their own in). */
  handlers?: HandlerTable;
}

export interface ExecuteOutput {
  results: ResultEntry[];
  diagnostics: Diagnostic[];
  /** Expectations without a verdict, and why. */
  notEvaluated: NotEvaluated[];
}

export async function executeModel(
  ast: BayesFile,
  env: CheckEnvironment,
  options: ExecuteOptions,
): Promise<ExecuteOutput> {
  const out: ExecuteOutput = { results: [], diagnostics: [], notEvaluated: [] };
  const shared = new Map<string, unknown>();
  const reported = new Set<string>();
  // A mistake the checker reported and a handler meets again is said once (same words, same range).
  for (const d of options.diagnostics) reported.add(JSON.stringify([d.message, d.range]));
  const starts = lineStarts(options.text);
  const runnable = allStatements(ast)
    .filter(isRunnable)
    .filter((s) => !hasErrors(options.diagnostics.filter((d) => within(d.range, s.range))));
  for (const [i, statement] of runnable.entries()) {
    if (options.signal?.aborted) break;
    options.onProgress?.(i / runnable.length, `line ${statement.range.start.line + 1}`);
    const context: HandlerContext = {
      statement,
      ast,
      symbols: options.symbols,
      env,
      source: sliceRange(options.text, starts, statement.range),
      signal: options.signal,
      onProgress: options.onProgress,
      shared,
    };
    const comparison =
      statement.kind === 'expectStatement' ? sliceRange(options.text, starts, statement.comparison.range) : '';
    const output = await runStatement(context, comparison, options.handlers ?? HANDLERS);
    out.results.push(...output.results);
    report(output.diagnostics);
    if (output.diagnostics.some((d) => d.code === 'cancelled')) break;
  }
  if (ast.statements.length === 0) {
    const start = { line: 0, character: 0 };
    const message = 'the file has no statements: nothing to run';
    out.diagnostics.push({ severity: 'information', code: 'empty-model', message, range: { start, end: start } });
  }
  out.notEvaluated = unevaluated(ast, options, out);
  if (!options.signal?.aborted) {
    const networks = networkResults({ ast, symbols: options.symbols, env, shared }, (range) =>
      sliceRange(options.text, starts, range),
    );
    out.results.push(...networks.results);
    report(networks.diagnostics);
    const sequences = sequenceResults(shared, env.budgets, options.signal);
    out.results.push(...sequences.results);
    report(sequences.diagnostics);
  }
  return out;

  /** Adds diagnostics once: a bad `observe` line fails every query that reads it, in the same words. */
  function report(diagnostics: Diagnostic[]): void {
    for (const d of diagnostics) {
      const key = JSON.stringify([d.message, d.range]);
      if (!reported.has(key)) {
        reported.add(key);
        out.diagnostics.push(d);
      }
    }
  }
}

/** Each `expect` that gave no verdict, with the first error on its range (or why the run stopped before it). */
function unevaluated(ast: BayesFile, options: ExecuteOptions, out: ExecuteOutput): NotEvaluated[] {
  const judged = new Set(out.results.filter((r) => r.kind === 'expect').map((r) => JSON.stringify(r.range.start)));
  const all = [...options.diagnostics, ...out.diagnostics];
  const starts = lineStarts(options.text);
  const stopped = out.diagnostics.some((d) => d.code === 'cancelled') || options.signal?.aborted;
  return allStatements(ast)
    .filter((s): s is ExpectStmt => s.kind === 'expectStatement')
    .filter((s) => !judged.has(JSON.stringify(s.range.start)))
    .map((s) => {
      const error =
        all.find((d) => d.severity === 'error' && within(d.range, s.range)) ??
        all.find((d) => d.severity === 'error' && d.range.start.line === s.range.start.line);
      const reason = error ? error.message : stopped ? 'the run stopped before this line' : 'the query gave no value';
      return { range: s.range, source: sliceRange(options.text, starts, s.range), reason };
    });
}

function isRunnable(s: Statement): s is RunnableStatement {
  return s.kind === 'learn' || s.kind === 'queryStatement' || s.kind === 'expectStatement';
}

async function runStatement(
  context: HandlerContext,
  comparisonText: string,
  handlers: HandlerTable,
): Promise<HandlerOutput> {
  const statement = context.statement;
  const key = handlerKey(statement);
  const handler = handlers[key];
  if (!handler) {
    return {
      results: [],
      diagnostics: [
        {
          severity: 'error',
          code: 'not-implemented',
          message: `\`${key}\` is not implemented yet`,
          range: statement.range,
        },
      ],
    };
  }
  let output: HandlerOutput;
  const started = performance.now();
  try {
    output = await handler(context);
  } catch (e) {
    return { results: [], diagnostics: [failure(e, key, statement.range)] };
  }
  const elapsedMs = performance.now() - started;
  return statement.kind === 'expectStatement' ? judge(context, statement, output, comparisonText, elapsedMs) : output;
}

/**
 * A handler that throws: a CompileError or EngineError is the model's problem, said plainly on
 * the range it names; anything else is our bug, said as such.
 */
function failure(e: unknown, key: string, range: Range): Diagnostic {
  if (e instanceof CancelledError)
    return {
      severity: 'warning',
      code: 'cancelled',
      message: `cancelled: this \`${key}\` and the statements after it did not run`,
      range,
    };
  if (e instanceof CompileError)
    return { severity: 'error', code: e.code ?? 'compile-error', message: e.message, range: e.range ?? range };
  if (e instanceof EngineError) return { severity: 'error', code: 'engine-error', message: e.message, range };
  return { severity: 'error', code: 'internal-error', message: `\`${key}\` failed: ${(e as Error).message}`, range };
}

/** Wraps a query's output in the expect verdict; a failed expectation is an error on its line. */
function judge(
  context: HandlerContext,
  statement: ExpectStmt,
  output: HandlerOutput,
  comparisonText: string,
  elapsedMs: number,
): HandlerOutput {
  const comparison = statement.comparison;
  if (output.value === undefined) {
    if (hasErrors(output.diagnostics)) return output;
    const table = output.results[0]?.kind === 'probability';
    const message = table
      ? 'the query gave a table, not one value to compare: name a state of every variable, P(X = x | Y = y)'
      : 'the query gave no value to compare';
    const diagnostic: Diagnostic = { severity: 'error', code: 'expect-no-value', message, range: statement.range };
    return { ...output, diagnostics: [...output.diagnostics, diagnostic] };
  }
  const passed = comparisonHolds(output.value, comparison);
  const result: ExpectResult = {
    kind: 'expect',
    range: statement.range,
    source: context.source,
    passed,
    actual: output.value,
    expected: comparisonText,
    headline: `${passed ? 'holds' : 'fails'}: ${formatValue(output.value)} ${comparisonText}`,
    elapsedMs,
    ...(output.results[0] ? { result: output.results[0] } : {}),
  };
  const diagnostics = [...output.diagnostics];
  if (!passed) {
    diagnostics.push({
      severity: 'error',
      code: 'expect-failed',
      message: `expected ${comparisonText} but the model gives ${formatValue(output.value)}`,
      range: comparison.range,
    });
  }
  return { results: [result], diagnostics, value: output.value };
}

function formatValue(value: number | string): string {
  return typeof value === 'number' ? String(Number(value.toPrecision(6))) : value;
}

function within(inner: Range, outer: Range): boolean {
  const before = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}
