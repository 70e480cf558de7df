/** Collects the diagnostics of a check (and of the model readers that report on the same ranges). */
import type { Diagnostic, Range, Severity } from './diagnostics.js';
import { SuggestionBudget } from './suggest.js';

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  /** What this check may still spend on "did you mean" (see `suggest.ts`). */
  readonly suggestions = new SuggestionBudget();

  add(severity: Severity, code: string, message: string, range: Range, data?: unknown): void {
    this.diagnostics.push({ severity, code, message, range, ...(data === undefined ? {} : { data }) });
  }
  error(code: string, message: string, range: Range, data?: unknown): void {
    this.add('error', code, message, range, data);
  }
  warning(code: string, message: string, range: Range, data?: unknown): void {
    this.add('warning', code, message, range, data);
  }
  info(code: string, message: string, range: Range, data?: unknown): void {
    this.add('information', code, message, range, data);
  }
}
