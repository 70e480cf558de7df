/** Small pieces every learning handler reads: its query, numeric options, and how numbers are shown. */
import type * as A from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';

export { queryOf } from '../handlerContext.js';

/** A numeric option of `{ seed: 1, draws: 10 }`, or undefined. */
export function numberOption(options: A.Options | undefined, name: string): number | undefined {
  const entry = options?.entries.find((e) => e.name?.text === name);
  if (!entry) return undefined;
  if (entry.value.kind !== 'number') throw new CompileError(`${name} is a number`, entry.value.range);
  return entry.value.value;
}

/** `seed`: a whole number, 1 when not given (every random choice is seeded). */
export function seedOption(options: A.Options | undefined): number {
  const seed = numberOption(options, 'seed') ?? 1;
  if (!Number.isInteger(seed)) throw new CompileError('seed is a whole number', options!.range);
  return seed;
}

/** Four significant digits, as headlines show numbers. */
export function fmt(x: number): string {
  return String(Number(x.toPrecision(4)));
}

export const IMPOSSIBLE_EVIDENCE = 'the evidence has probability 0 under every hypothesis: no posterior exists';
