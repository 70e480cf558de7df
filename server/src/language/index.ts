/**
 * The language front end's public surface: text → AST with ranges → diagnostics.
 * Everything outside `language/` imports from here only.
 */
import type { Diagnostic } from './diagnostics.js';
import type { BayesFile } from './ast.js';
import { parse } from './parse.js';
import { check } from './checker.js';
import type { CheckEnvironment } from './environment.js';

export type { CheckEnvironment } from './environment.js';
export type { SymbolTable, Scope, VariableInfo, GlobalSymbol, DataInfo } from './references/symbols.js';
export { check } from './checker.js';
export { allStatements } from './references/declarations.js';
export { nameIndex } from './references/nameResolution.js';
export {
  NameIndex,
  stateNamed,
  comparePositions,
  contains,
  type NameKind,
  type NameSymbol,
  type Occurrence,
  type CellBlock,
} from './references/nameIndex.js';
export { lineStarts, sliceRange, documentRange, firstAtOrAfter } from './lines.js';
export { fullParse, reparse, type ParseState } from './incremental.js';

export type { Diagnostic, Range, Position, Severity } from './diagnostics.js';
export type * from './ast.js';
export { forEachChild, walk, valueText } from './ast.js';
export {
  cellCount,
  cellIsName,
  cellKind,
  cellNode,
  cellNumber,
  cellRange,
  cellText,
  ScannedRow,
  NUMBER,
  MISSING,
  REF,
  type CellStore,
} from './dataCells.js';
export { scannedBodies } from './dataBlock.js';
export { lexAround } from './dataScan.js';

export interface ParseResult {
  ast: BayesFile;
  /** Lexing and parsing diagnostics. */
  diagnostics: Diagnostic[];
}

export function parseDocument(text: string): ParseResult {
  return parse(text);
}

/** Semantic diagnostics of a parsed file (use `check` for the symbol table as well). */
export function checkDocument(ast: BayesFile, env: CheckEnvironment): Diagnostic[] {
  return check(ast, env).diagnostics;
}
