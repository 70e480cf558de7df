/**
 * An error in the inputs of an engine algorithm (a prior that does not sum to 1, a value outside
 * a domain, ...). Engine functions throw it with a message written for the user; the glue that
 * called them turns it into a diagnostic on the statement that asked for the computation.
 */
export class EngineError extends Error {
  override name = 'EngineError';
}

export function requireProbability(value: number, what: string): void {
  if (!(value >= 0 && value <= 1)) throw new EngineError(`${what} must be a probability in [0, 1], got ${value}`);
}

export function requireDistribution(values: ArrayLike<number>, what: string, tolerance = 1e-6): void {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    requireProbability(values[i]!, `${what}[${i}]`);
    sum += values[i]!;
  }
  if (Math.abs(sum - 1) > tolerance) throw new EngineError(`${what} must sum to 1, got ${roundForMessage(sum)}`);
}

function roundForMessage(x: number): string {
  return String(Number(x.toPrecision(10)));
}
