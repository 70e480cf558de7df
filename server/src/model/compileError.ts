import type { Range } from '../language/diagnostics.js';

/**
 * A model that checked clean but cannot be compiled for a run; the range says where, when known,
 * and `code` the diagnostic's code when it is more precise than `compile-error` (`soft-evidence`).
 */
export class CompileError extends Error {
  constructor(
    message: string,
    readonly range?: Range,
    readonly code?: string,
  ) {
    super(message);
  }
}
