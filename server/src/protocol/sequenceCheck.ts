/**
 * The shape of a `sequence` result, checked by the panel before it draws one: a chart over t
 * indexes a dozen parallel arrays by point, so a result whose arrays disagree in length (an older
 * or foreign producer, a panel state restored from another version) would draw garbage or throw
 * mid-draw. The panel shows the first problem in words instead. Both variants are checked: the
 * discrete one (states, P(state) per point) and the Gaussian one (mean, variance, ±2σ band).
 */
import type { ResultEntry } from './runResult.js';

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numbers = (x: unknown, n: number) => Array.isArray(x) && x.length === n && x.every(finite);
const readings = (x: unknown, n: number) =>
  Array.isArray(x) && x.length === n && x.every((v) => v === null || finite(v));
const count = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/** Points a series of `steps` steps has in buckets of `bucket`. */
const pointsOf = (steps: number, bucket: number) => Math.ceil(steps / bucket);

/** Why `e` is not a well-formed sequence result, or undefined. */
export function sequenceProblem(e: ResultEntry | unknown): string | undefined {
  if (!isRecord(e) || e.kind !== 'sequence') return 'not a sequence result';
  if (!count(e.steps) || !Number.isSafeInteger(e.bucket) || (e.bucket as number) < 1)
    return 'steps and bucket must be whole numbers (bucket ≥ 1)';
  if (typeof e.logLikelihood !== 'number') return 'logLikelihood must be a number';
  if (!Array.isArray(e.variables)) return 'variables must be a list';
  const points = pointsOf(e.steps, e.bucket as number);
  for (const [i, v] of e.variables.entries()) {
    const problem = !isRecord(v)
      ? 'not an object'
      : typeof v.name !== 'string'
        ? 'name must be a string'
        : e.method === 'kalman'
          ? gaussianProblem(
              v,
              points,
              count(e.forecast) ? pointsOf(e.forecast, e.bucket as number) : -1,
              e.bucket !== 1,
            )
          : e.method === 'exact' || e.method === 'particle'
            ? discreteProblem(v, points, e.bucket !== 1)
            : `unknown method ${JSON.stringify(e.method)}`;
    if (problem) return `variable ${i + 1}: ${problem}`;
  }
  return undefined;
}

function gaussianProblem(
  v: Record<string, unknown>,
  points: number,
  ahead: number,
  bucketed: boolean,
): string | undefined {
  if (ahead < 0) return 'forecast must be a whole number';
  const series = (name: string, n: number, required: boolean): string | undefined => {
    const s = v[name];
    if (s === undefined && !required) return undefined;
    if (!isRecord(s)) return `${name} must be an object`;
    for (const field of ['mean', 'variance', 'lower', 'upper'])
      if (!numbers(s[field], n)) return `${name}.${field} must be ${n} numbers`;
    if ((s.variance as number[]).some((x) => x < 0)) return `${name}.variance must be ≥ 0`;
    if (bucketed && !(numbers(s.min, n) && numbers(s.max, n))) return `${name}.min and max must be ${n} numbers`;
    return undefined;
  };
  const wrong =
    series('filtered', points, true) ??
    series('smoothed', points, false) ??
    series('forecast', ahead, false) ??
    (readings(v.observed, points) ? undefined : `observed must be ${points} numbers or nulls`);
  if (wrong || !bucketed) return wrong;
  if (!numbers(v.observedSteps, points)) return `observedSteps must be ${points} numbers`;
  return readings(v.observedMin, points) && readings(v.observedMax, points)
    ? undefined
    : `observedMin and observedMax must be ${points} numbers or nulls`;
}

function discreteProblem(v: Record<string, unknown>, points: number, bucketed: boolean): string | undefined {
  const states = v.states;
  if (!Array.isArray(states) || states.length === 0 || !states.every((s) => typeof s === 'string'))
    return 'states must be a list of names';
  const perState = (x: unknown) => Array.isArray(x) && x.length === states.length && x.every((r) => numbers(r, points));
  const series = (name: string, required: boolean): string | undefined => {
    const s = v[name];
    if (s === undefined && !required) return undefined;
    if (!isRecord(s) || !perState(s.mean)) return `${name}.mean must be ${points} numbers per state`;
    if (bucketed && !(perState(s.min) && perState(s.max)))
      return `${name}.min and max must be ${points} numbers per state`;
    return undefined;
  };
  const named = (x: unknown, nullable: boolean) =>
    Array.isArray(x) && x.length === points && x.every((s) => (nullable ? s === null : s === '') || states.includes(s));
  return (
    series('filtered', true) ??
    series('smoothed', false) ??
    (named(v.observed, true) ? undefined : `observed must be ${points} states or nulls`) ??
    (v.mostLikely === undefined || named(v.mostLikely, false) ? undefined : `mostLikely must be ${points} states`)
  );
}
