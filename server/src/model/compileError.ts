import type { Range } from '../language/diagnostics.js';

/** A model that checked clean but cannot be compiled for a run; the range says where, when known. */
export class CompileError extends Error {
  constructor(
    message: string,
    readonly range?: Range,
  ) {
    super(message);
  }
}
