/** What every check module shares: the symbol table, the host environment and the report. */
import type { Reporter } from '../reporter.js';
import type { CheckEnvironment } from '../environment.js';
import type { SymbolTable } from '../references/symbols.js';

export interface CheckContext {
  symbols: SymbolTable;
  env: CheckEnvironment;
  report: Reporter;
}
