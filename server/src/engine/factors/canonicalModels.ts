/**
 * Canonical models: conditional probability tables given by one number (or one distribution)
 * per cause instead of one row per parent assignment, so that a variable with many causes can
 * be written by hand.
 *
 * Noisy-MAX (Díez 1993) with Henrion's leak (1989): the effect Y has states ordered from the most
 * severe to the "absent" one (the last), and so has each cause (its last state is "absent").
 * The numbers are what an expert can say: P(Y | only cause i is in state s, every other cause
 * absent) — the leak included — and the leak P(Y | every cause absent). With G(y) = P(Y at most
 * as severe as y) (the states from y to the last), each cause acts through its link
 * c_{i,s}(y) = G_{i,s}(y) / G_leak(y), and independently:
 *   G(y | x) = G_leak(y) · Π_{i: x_i not absent} c_{i,x_i}(y).
 * Noisy-OR is the two-state case: P(¬y | x) = (1 − leak) Π_{i present} (1 − p_i) / (1 − leak).
 */
import { EngineError } from '../engineError.js';

export interface CanonicalCause {
  /** Number of states of the cause; its last state is "absent". */
  states: number;
  /**
   * For each non-absent state s (index < states − 1): P(Y | only this cause in state s), the leak
   * included, over Y's states.
   */
  distributions: Float64Array[];
}

/** Tolerance for links that leave [0, 1] or grow by rounding only. */
const SLACK = 1e-12;

/**
 * The CPT of Y (k states, the last "absent") given the causes, in the IR's layout: one row per
 * assignment of the causes (first cause slowest), Y fastest. `leak` is P(Y | every cause absent).
 * `names` (cause names, then Y's) word the errors.
 */
export function noisyMaxTable(
  k: number,
  causes: readonly CanonicalCause[],
  leak: Float64Array,
  names?: { causes: string[]; effect: string },
): Float64Array {
  const cause = (i: number) => names?.causes[i] ?? `cause ${i + 1}`;
  const effect = names?.effect ?? 'the effect';
  if (leak.length !== k) throw new EngineError(`the leak needs ${k} probabilities, one per state of ${effect}`);
  const gLeak = survival(leak);
  // links[i][s][y]: c_{i,s}(y).
  const links = causes.map((c, i) =>
    c.distributions.map((d, s) => {
      if (d.length !== k)
        throw new EngineError(`${cause(i)} needs ${k} probabilities per state, one per state of ${effect}`);
      const g = survival(d);
      const link = new Float64Array(k);
      for (let y = 0; y < k; y++) {
        if (gLeak[y]! <= 0) {
          if (g[y]! > SLACK)
            throw new EngineError(
              `${cause(i)} (state ${s + 1}) makes ${effect} less severe than the leak alone, which a noisy-MAX cannot`,
            );
          link[y] = 0;
        } else {
          link[y] = Math.min(1, g[y]! / gLeak[y]!);
          if (g[y]! / gLeak[y]! > 1 + SLACK) {
            throw new EngineError(
              `${cause(i)} (state ${s + 1}) makes ${effect} less likely to be severe than the leak alone ` +
                '(P ≤ leak): a cause can only add to the leak',
            );
          }
        }
        if (y > 0 && link[y]! > link[y - 1]! + SLACK) {
          throw new EngineError(
            `${cause(i)} (state ${s + 1}) does not act as a noisy-MAX cause on ${effect}: ` +
              'its link would not be a distribution',
          );
        }
      }
      return link;
    }),
  );
  const rows = causes.reduce((n, c) => n * c.states, 1);
  const table = new Float64Array(rows * k);
  const state = new Array<number>(causes.length).fill(0);
  const g = new Float64Array(k + 1);
  for (let r = 0; r < rows; r++) {
    let rest = r;
    for (let i = causes.length - 1; i >= 0; i--) {
      state[i] = rest % causes[i]!.states;
      rest = Math.floor(rest / causes[i]!.states);
    }
    for (let y = 0; y < k; y++) {
      let v = gLeak[y]!;
      causes.forEach((c, i) => {
        if (state[i]! < c.states - 1) v *= links[i]![state[i]!]![y]!;
      });
      g[y] = v;
    }
    g[k] = 0;
    for (let y = 0; y < k; y++) table[r * k + y] = Math.max(0, g[y]! - g[y + 1]!);
  }
  return table;
}

/** Henrion's leaky noisy-OR over two-state causes and effect (present first): p_i and the leak. */
export function noisyOrTable(
  p: readonly number[],
  leak: number,
  names?: { causes: string[]; effect: string },
): Float64Array {
  const dist = (q: number) => Float64Array.of(q, 1 - q);
  p.forEach((q, i) => {
    if (q < leak - SLACK) {
      throw new EngineError(
        `P(${names?.effect ?? 'effect'} | only ${names?.causes[i] ?? `cause ${i + 1}`}) = ${q} ` +
          `is below the leak ${leak}: with the leak included it is at least the leak`,
      );
    }
  });
  return noisyMaxTable(
    2,
    p.map((q) => ({ states: 2, distributions: [dist(q)] })),
    dist(leak),
    names,
  );
}

/** G(y) = Σ_{t ≥ y} P(t): the probability of being at most as severe as y. */
function survival(d: Float64Array): Float64Array {
  const g = new Float64Array(d.length);
  let s = 0;
  for (let y = d.length - 1; y >= 0; y--) {
    s += d[y]!;
    g[y] = s;
  }
  return g;
}
