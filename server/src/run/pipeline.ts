/**
 * The one path from text to results, shared by the CLI, the language server and the worker:
 * parse → check (fast, on every change) and parse → check → execute (on save / Run).
 */
import { parseDocument, checkDocument, type CheckEnvironment, type ParseResult } from '../language/index.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { RUN_RESULT_VERSION, type RunResult } from './runResult.js';

export interface CheckedDocument {
  parse: ParseResult;
  diagnostics: Diagnostic[];
}

export function checkText(text: string, env: CheckEnvironment): CheckedDocument {
  const parse = parseDocument(text);
  const diagnostics = [...parse.diagnostics, ...checkDocument(parse.ast, env)];
  return { parse, diagnostics };
}

export interface RunOptions {
  /** Cooperative cancellation: long loops check it. */
  signal?: AbortSignal;
  /** Progress of long work, 0..1 with a message. */
  onProgress?: (fraction: number, message: string) => void;
}

export async function runText(text: string, file: string, env: CheckEnvironment, options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const checked = checkText(text, env);
  void options;
  return {
    version: RUN_RESULT_VERSION,
    file,
    diagnostics: sortDiagnostics(checked.diagnostics),
    results: [],
    elapsedMs: performance.now() - started,
  };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}
