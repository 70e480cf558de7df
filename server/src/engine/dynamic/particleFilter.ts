/**
 * Filtering by sampling when the interface's junction tree is over the memory budget: sequential
 * importance resampling (the bootstrap particle filter; Doucet, de Freitas & Gordon 2001; Koller &
 * Friedman §15.3.3). Each particle is one slice's states; a step samples slice t from the
 * transition tables given the particle's slice t−1, observed variables are clamped and weigh the
 * particle by P(e | parents) (likelihood weighting inside the slice), virtual findings by λ(x),
 * and soft findings reweigh the particles so the weighted belief in X_t is q (Jeffrey's rule on
 * the particle estimate). The particles are resampled (systematic) when the effective sample size
 * falls under half of them. Memory is the particles of one slice, whatever T.
 *
 * Standard errors: the particles are split into R independent filters (own seeded streams); the
 * estimate is their mean and its standard error the spread of the R filters' estimates / √R. That
 * counts every source of error, resampling across steps included, which the within-step formula
 * of importance sampling does not.
 */
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { EngineError } from '../engineError.js';
import { createRng, type Rng } from '../random.js';
import type { Cpt } from '../network.js';
import type { StepFindings } from './sliceTree.js';
import type { SliceMarginals } from './forwardBackward.js';
import type { TwoSliceNetwork } from './twoSliceNetwork.js';
import { jeffreyLikelihood } from './softFindings.js';
import { complete, type Stepwise } from '../stepwise.js';

/** Independent filters the particles are split into, for the standard errors. */
export const PARTICLE_REPLICATES = 20;
export const DEFAULT_PARTICLES = 10_000;

export interface ParticleOptions {
  /** Particles in all (split into PARTICLE_REPLICATES filters). */
  particles?: number;
  seed?: number;
  /** Steps to forecast after the last one. */
  predict?: number;
  /** The budget of sampled states (Budgets.maxSamples). */
  maxSamples?: number;
  signal?: CancelSignal;
}

export interface ParticleResult {
  /** filtered[t−1][v]: the estimate of P(X_v,t | e_1..t). */
  filtered: SliceMarginals[];
  /** Their standard errors, same layout. */
  filteredErrors: SliceMarginals[];
  /** predicted[k−1][v]: the estimate of P(X_v,T+k | e_1..T), and its standard errors. */
  predicted?: SliceMarginals[];
  predictedErrors?: SliceMarginals[];
  /** log of the mean of the filters' estimates of P(e_1..T) (unbiased for P(e_1..T)). */
  logLikelihood: number;
  particles: number;
  replicates: number;
  seed: number;
}

/** One table in the sampler's layout: parents as (slice, variable) pairs, rows of k entries. */
interface Table {
  k: number;
  parents: Int32Array;
  cards: Int32Array;
  values: Float64Array;
}

/** One independent filter: `size` particles of n states, their normalised weights. */
class Filter {
  x: Int32Array;
  private other: Int32Array;
  readonly w: Float64Array;
  logLikelihood = 0;
  constructor(
    readonly size: number,
    readonly n: number,
    readonly rng: Rng,
  ) {
    this.x = new Int32Array(size * n);
    this.other = new Int32Array(size * n);
    this.w = new Float64Array(size).fill(1 / size);
  }

  /** Samples the next slice of every particle (clamping and weighing by `obs`, λ); returns the step's Σ w·u. */
  advance(
    order: readonly number[],
    tables: readonly Table[],
    obs: Int32Array,
    lambdas: (ArrayLike<number> | undefined)[],
  ): number {
    const { n, size, rng, w } = this;
    const prev = this.x;
    const next = this.other;
    let z = 0;
    for (let i = 0; i < size; i++) {
      const base = i * n;
      let u = 1;
      for (const v of order) {
        const t = tables[v]!;
        let row = 0;
        for (let j = 0; j < t.parents.length; j++) {
          const p = t.parents[j]!;
          row = row * t.cards[j]! + (p < n ? next[base + p]! : prev[base + p - n]!);
        }
        const off = row * t.k;
        let s = obs[v]!;
        if (s >= 0) u *= t.values[off + s]!;
        else s = draw(rng, t.values, off, t.k);
        next[base + v] = s;
        const lambda = lambdas[v];
        if (lambda) u *= lambda[s]!;
      }
      w[i]! *= u;
      z += w[i]!;
    }
    this.other = prev;
    this.x = next;
    if (z > 0) for (let i = 0; i < size; i++) w[i]! /= z;
    return z;
  }

  /** The weighted distribution of X_v among the particles. */
  marginal(v: number, k: number): Float64Array {
    const m = new Float64Array(k);
    for (let i = 0; i < this.size; i++) m[this.x[i * this.n + v]!]! += this.w[i]!;
    return m;
  }

  /** Multiplies each particle's weight by λ(X_v) and normalises. */
  reweigh(v: number, lambda: ArrayLike<number>): void {
    let z = 0;
    for (let i = 0; i < this.size; i++) z += this.w[i]! *= lambda[this.x[i * this.n + v]!]!;
    for (let i = 0; i < this.size; i++) this.w[i]! /= z;
  }

  /** Systematic resampling when the effective sample size 1/Σw² is under half the particles. */
  resampleIfDegenerate(): void {
    const { size, n, w } = this;
    let sq = 0;
    for (let i = 0; i < size; i++) sq += w[i]! * w[i]!;
    if (1 / sq >= size / 2) return;
    const out = this.other;
    let cumulative = w[0]!;
    let j = 0;
    const u0 = this.rng.next() / size;
    for (let i = 0; i < size; i++) {
      const u = u0 + i / size;
      while (u > cumulative && j < size - 1) cumulative += w[++j]!;
      out.set(this.x.subarray(j * n, j * n + n), i * n);
    }
    this.other = this.x;
    this.x = out;
    w.fill(1 / size);
  }
}

/** A state drawn from row `off` of k entries (the rows sum to 1; the total guards rounding). */
function draw(rng: Rng, values: Float64Array, off: number, k: number): number {
  let total = 0;
  for (let s = 0; s < k; s++) total += values[off + s]!;
  let r = rng.next() * total;
  for (let s = 0; s < k - 1; s++) {
    r -= values[off + s]!;
    if (r < 0) return s;
  }
  return k - 1;
}

function tablesOf(dbn: TwoSliceNetwork, cpts: readonly Cpt[]): Table[] {
  const n = dbn.variables.length;
  return cpts.map((c) => ({
    k: dbn.variables[c.child]!.states.length,
    parents: Int32Array.from(c.parents),
    cards: Int32Array.from(c.parents, (p) => dbn.variables[p % n]!.states.length),
    values: Float64Array.from(c.table),
  }));
}

/** Slice variables parents first (the parents inside the slice; slice t−1 is already sampled). */
function sliceOrder(dbn: TwoSliceNetwork, cpts: readonly Cpt[]): number[] {
  const n = dbn.variables.length;
  const done = new Uint8Array(n);
  const order: number[] = [];
  while (order.length < n) {
    const before = order.length;
    for (let v = 0; v < n; v++)
      if (!done[v] && cpts[v]!.parents.every((p) => p >= n || done[p])) {
        done[v] = 1;
        order.push(v);
      }
    if (order.length === before) throw new EngineError('a slice of the network over time has a cycle');
  }
  return order;
}

/**
 * The particle filter over the findings of steps 1…T: per step, the estimate of each slice
 * variable's filtered distribution and its standard error. Throws EngineError when every
 * particle of a filter has weight 0 (the observations are impossible, or too unlikely for the
 * number of particles).
 */
export function particleFilter(
  dbn: TwoSliceNetwork,
  findings: Iterable<StepFindings>,
  options: ParticleOptions = {},
): ParticleResult {
  return complete(particleFilterSteps(dbn, findings, options));
}

/** particleFilter, yielding after each step. */
export function* particleFilterSteps(
  dbn: TwoSliceNetwork,
  findings: Iterable<StepFindings>,
  options: ParticleOptions = {},
): Stepwise<ParticleResult> {
  const n = dbn.variables.length;
  const particles = options.particles ?? DEFAULT_PARTICLES;
  const R = PARTICLE_REPLICATES;
  if (!Number.isInteger(particles) || particles < 10 * R)
    throw new EngineError(`the particle filter needs at least ${10 * R} particles, got ${particles}`);
  // Two slices of states per particle, and its weight: held to the samples' budget, not the tables'.
  requireWithin('the particles', particles * (2 * n + 1), options.maxSamples ?? DEFAULT_BUDGETS.maxSamples, 'states');
  const seed = options.seed ?? 1;
  const master = createRng(seed);
  const size = Math.ceil(particles / R);
  const filters = Array.from({ length: R }, () => new Filter(size, n, createRng(master.int(2 ** 32))));
  const cards = dbn.variables.map((v) => v.states.length);
  const initial = { order: sliceOrder(dbn, dbn.initial), tables: tablesOf(dbn, dbn.initial) };
  const transition = { order: sliceOrder(dbn, dbn.transition), tables: tablesOf(dbn, dbn.transition) };
  const noObs = new Int32Array(n).fill(-1);
  const noLambdas = new Array<undefined>(n);
  for (const f of filters) f.advance(initial.order, initial.tables, noObs, noLambdas);

  const estimate = (): [SliceMarginals, SliceMarginals] => {
    const mean: SliceMarginals = [];
    const errors: SliceMarginals = [];
    for (let v = 0; v < n; v++) {
      const each = filters.map((f) => f.marginal(v, cards[v]!));
      const m = new Float64Array(cards[v]!);
      const se = new Float64Array(cards[v]!);
      for (let x = 0; x < m.length; x++) {
        let s = 0;
        for (const e of each) s += e[x]!;
        m[x] = s / R;
        let d2 = 0;
        for (const e of each) d2 += (e[x]! - m[x]!) ** 2;
        se[x] = Math.sqrt(d2 / (R - 1) / R);
      }
      mean.push(m);
      errors.push(se);
    }
    return [mean, errors];
  };

  const step = (f: StepFindings, t: number): [SliceMarginals, SliceMarginals] => {
    const obs = new Int32Array(n).fill(-1);
    for (const [v, s] of f.evidence) obs[v] = s;
    const lambdas = new Array<ArrayLike<number> | undefined>(n);
    for (const [v, l] of f.likelihoods ?? []) lambdas[v] = l;
    for (const filter of filters) {
      const z = filter.advance(transition.order, transition.tables, obs, lambdas);
      if (!(z > 0))
        throw new EngineError(
          `the particle filter lost every particle at step ${t}: the observations are impossible, or too unlikely for ${particles} particles`,
        );
      filter.logLikelihood += Math.log(z);
      for (const [v, q] of f.soft ?? [])
        filter.reweigh(v, jeffreyLikelihood(filter.marginal(v, cards[v]!), q, dbn.variables[v]!, t));
    }
    const out = estimate();
    for (const filter of filters) filter.resampleIfDegenerate();
    return out;
  };

  const filtered: SliceMarginals[] = [];
  const filteredErrors: SliceMarginals[] = [];
  let t = 0;
  for (const f of findings) {
    throwIfCancelled(options.signal);
    t++;
    const [m, se] = step(f, t);
    filtered.push(m);
    filteredErrors.push(se);
    yield { phase: 'particle filter', done: t };
  }
  const logs = filters.map((f) => f.logLikelihood);
  const top = Math.max(...logs);
  const logLikelihood = top + Math.log(logs.reduce((s, l) => s + Math.exp(l - top), 0) / R);
  const result: ParticleResult = { filtered, filteredErrors, logLikelihood, particles: size * R, replicates: R, seed };
  if (options.predict) {
    result.predicted = [];
    result.predictedErrors = [];
    const none: StepFindings = { evidence: new Map() };
    for (let k = 1; k <= options.predict; k++) {
      throwIfCancelled(options.signal);
      const [m, se] = step(none, t + k);
      result.predicted.push(m);
      result.predictedErrors.push(se);
    }
  }
  return result;
}
