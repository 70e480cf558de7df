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
    diagnostics: sortDiagnostics([...checked.diagnostics, ...executed.diagnostics]),
    results: executed.results,
    elapsedMs: performance.now() - started,
    ...(executed.notEvaluated.length > 0 ? { notEvaluated: executed.notEvaluated } : {}),
  };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}
