/**
 * Source positions and diagnostics, in LSP form (0-based line, UTF-16 character), so every
 * consumer — CLI, language server, webview — can use them without conversion.
 */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Diagnostic {
  severity: Severity;
  message: string;
  range: Range;
  /** Stable identifier of the rule, e.g. `undefined-name`; quick fixes key on it. */
  code: string;
  /** What a quick fix needs (a suggested name, the row to normalise, …). */
  data?: unknown;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
