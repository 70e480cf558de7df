/**
 * The language front end's public surface: text → AST with ranges → diagnostics.
 * Everything outside `language/` imports from here only.
 */
import type { Diagnostic } from './diagnostics.js';

export type { Diagnostic, Range, Position, Severity } from './diagnostics.js';

/** Placeholder until the Chevrotain front end lands: the AST root. */
export interface BayesFile {
  kind: 'file';
  statements: unknown[];
}

export interface ParseResult {
  ast: BayesFile;
  /** Lexing and parsing diagnostics. */
  diagnostics: Diagnostic[];
}

/** What the checker may ask of the outside world; the CLI and the server each provide one. */
export interface CheckEnvironment {
  /** Absolute path of the model file, or undefined for an unsaved buffer. */
  documentPath?: string;
  /** Folders a model may read from (the workspace folder, plus configured data roots). */
  allowedRoots: string[];
  fileExists(absolutePath: string): boolean;
}

export function parseDocument(text: string): ParseResult {
  void text;
  return { ast: { kind: 'file', statements: [] }, diagnostics: [] };
}

export function checkDocument(ast: BayesFile, env: CheckEnvironment): Diagnostic[] {
  void ast;
  void env;
  return [];
}
