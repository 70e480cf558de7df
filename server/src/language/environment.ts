import type { Budgets } from '../engine/budget.js';

/** What the checker may ask of the outside world; the CLI and the language server each provide one. */
export interface CheckEnvironment {
  /** Size limits checked before tables are allocated (defaults: engine/budget.ts). */
  budgets?: Budgets;
  /** Absolute path of the model file, or undefined for an unsaved buffer. */
  documentPath?: string;
  /** Folders a model may read from (the workspace folder, plus configured data roots). */
  allowedRoots: string[];
  fileExists(absolutePath: string): boolean;
  /** The column names of a CSV file's header row, or why it cannot be read. */
  readCsvHeader?(absolutePath: string): string[] | { error: string };
  /** The variables and states of a BIF network file, or why it cannot be read. */
  networkSymbols?(absolutePath: string): { variables: { name: string; states: string[] }[] } | { error: string };
  /** A file's text, for runs (data, imported networks). Absent where files may not be read (restricted mode). */
  readText?(absolutePath: string): string;
  /** A file's bytes (compressed corpora). */
  readBytes?(absolutePath: string): Uint8Array;
}
