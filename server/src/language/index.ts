/**
 * The language front end's public surface: text → AST with ranges → diagnostics.
 * Everything outside `language/` imports from here only.
 */
import type { Diagnostic } from './diagnostics.js';
import type { BayesFile } from './ast.js';
import { parse } from './parse.js';

export type { Diagnostic, Range, Position, Severity } from './diagnostics.js';
export type * from './ast.js';
export { forEachChild, walk, valueText } from './ast.js';

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
  return parse(text);
}

export function checkDocument(ast: BayesFile, env: CheckEnvironment): Diagnostic[] {
  void ast;
  void env;
  return [];
}
