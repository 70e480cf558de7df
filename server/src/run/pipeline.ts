/**
 * The one path from text to results, shared by the CLI, the language server and the worker:
 * parse → check (fast, on every change) and parse → check → execute (on save / Run).
 */
import { parseDocument, check, type CheckEnvironment, type ParseResult, type SymbolTable } from '../language/index.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { RUN_RESULT_VERSION, type RunResult } from '../protocol/runResult.js';
import { executeModel } from './execute.js';
import type { HandlerTable } from './handlerContext.js';

export interface CheckedDocument {
  parse: ParseResult;
  diagnostics: Diagnostic[];
  symbols: SymbolTable;
}

/** `parse` may be given when the caller already parsed this text (the server keeps one per version). */
export function checkText(
  text: string,
  env: CheckEnvironment,
  parse: ParseResult = parseDocument(text),
): CheckedDocument {
  const checked = check(parse.ast, env);
  return { parse, diagnostics: [...parse.diagnostics, ...checked.diagnostics], symbols: checked.symbols };
}

export interface RunOptions {
  /** Cooperative cancellation: long loops check it. */
  signal?: AbortSignal;
  /** Progress of long work, 0..1 with a message. */
  onProgress?: (fraction: number, message: string) => void;
  /** Which handler answers each form (tests put their own in). */
  handlers?: HandlerTable;
}

export async function runText(
  text: string,
  file: string,
  env: CheckEnvironment,
  options: RunOptions = {},
): Promise<RunResult> {
  const started = performance.now();
  const checked = checkText(text, env);
  const executed = await executeModel(checked.parse.ast, env, {
    text,
    symbols: checked.symbols,
    diagnostics: checked.diagnostics,
    signal: options.signal,
    onProgress: options.onProgress,
    handlers: options.handlers,
  });
  return {
    version: RUN_RESULT_VERSION,
    file,
    diagnostics: sortDiagnostics([...checked.diagnostics, ...newFindings(checked.diagnostics, executed.diagnostics)]),
    results: executed.results,
    elapsedMs: performance.now() - started,
    ...(executed.notEvaluated.length > 0 ? { notEvaluated: executed.notEvaluated } : {}),
  };
}

/**
 * The run's diagnostics less the compile errors on a range the checker already flagged as an error
 * (an imported network that cannot be read is an `import-file` error on its path; each statement
 * that uses it would say so again on that same path).
 */
function newFindings(checked: readonly Diagnostic[], executed: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) =>
    `${d.range.start.line}:${d.range.start.character}:${d.range.end.line}:${d.range.end.character}`;
  const flagged = new Set(checked.filter((d) => d.severity === 'error').map(key));
  return executed.filter((d) => !(d.code === 'compile-error' && flagged.has(key(d))));
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}
