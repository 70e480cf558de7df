/**
 * Discrete factors φ(X₁…X_k) over Float64Array: the tables every exact algorithm multiplies,
 * sums out and reduces. Layout: the LAST variable varies fastest, so the entry of assignment
 * (x₁…x_k) is at Σ xᵢ·strideᵢ with stride_k = 1 — the same layout as a CPT whose variables are
 * [...parents, child], which lets a CPT become a factor without copying.
 *
 * Product, marginalisation and reduction walk the entries with an odometer over the result's
 * assignment and move the operands' offsets by precomputed stride deltas: no allocation per entry.
 */
import type { BayesianNetwork } from '../network.js';

export interface Factor {
  /** Variable indices (into the network), in table order; the last varies fastest. */
  vars: number[];
  /** Number of states of each variable in `vars`. */
  cards: number[];
  values: Float64Array;
}

export function stridesOf(cards: readonly number[]): number[] {
  const strides = new Array<number>(cards.length);
  let s = 1;
  for (let i = cards.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= cards[i]!;
  }
  return strides;
}

export function tableSize(cards: readonly number[]): number {
  let n = 1;
  for (const c of cards) n *= c;
  return n;
}

/** The CPT of `v` as the factor P(v | parents) over [...parents, v] (shares the table). */
export function cptFactor(net: BayesianNetwork, v: number): Factor {
  const cpt = net.cpts[v]!;
  const vars = [...cpt.parents, v];
  return { vars, cards: vars.map((u) => net.variables[u]!.states.length), values: cpt.table };
}

export function constantFactor(value = 1): Factor {
  return { vars: [], cards: [], values: Float64Array.of(value) };
}

/**
 * For every entry of a table over `vars`, the offset of the matching entry in a table over
 * `target` (a subset of `vars`, any order). Computed once and reused by the junction tree.
 */
export function indexMap(vars: readonly number[], cards: readonly number[], target: readonly number[]): Int32Array {
  return mapBySteps(cards, targetSteps(vars, cards, target));
}

/**
 * `indexMap` in three short pieces. The target offset is linear in the digits, so the entries of
 * the table over `vars` come in runs (the variables from position `at` on) and, inside a run,
 * in tail blocks (the trailing variables whose target offset is constant, tailStep 0, or counts
 * up by one, tailStep 1): entry (h, i, l) — run h, block i, l-th of its block — maps to
 * outer[h] + inner[i] + l · tailStep. It costs the pieces' sizes instead of 4 bytes per entry,
 * and a loop over a tail block reads the target contiguously (or one entry of it).
 */
export interface RunIndexMap {
  outer: Int32Array;
  inner: Int32Array;
  tail: number;
  tailStep: 0 | 1;
}

export function runIndexMap(
  vars: readonly number[],
  cards: readonly number[],
  target: readonly number[],
  at: number,
): RunIndexMap {
  const step = targetSteps(vars, cards, target);
  const { tailAt, tail, tailStep } = tailBlock(step, cards, at);
  return {
    outer: mapBySteps(cards.slice(0, at), step.slice(0, at)),
    inner: mapBySteps(cards.slice(at, tailAt), step.slice(at, tailAt)),
    tail,
    tailStep,
  };
}

/** outer.length + inner.length of runIndexMap(vars, cards, target, at), without building it (for sizes). */
export function runIndexMapEntries(
  vars: readonly number[],
  cards: readonly number[],
  target: readonly number[],
  at: number,
): number {
  const { tailAt } = tailBlock(targetSteps(vars, cards, target), cards, at);
  return tableSize(cards.slice(0, at)) + tableSize(cards.slice(at, tailAt));
}

/** The tail block of runIndexMap: the trailing variables from tailAt on, `tail` entries, by tailStep. */
function tailBlock(
  step: readonly number[],
  cards: readonly number[],
  at: number,
): { tailAt: number; tail: number; tailStep: 0 | 1 } {
  const tailStep = step[step.length - 1] === 0 ? 0 : 1;
  let tailAt = step.length,
    tail = 1;
  while (tailAt > at && step[tailAt - 1] === tailStep * tail) tail *= cards[--tailAt]!;
  return { tailAt, tail, tailStep };
}

/** The target's stride of each variable of `vars` (0 for one not in the target). */
function targetSteps(vars: readonly number[], cards: readonly number[], target: readonly number[]): number[] {
  const tStrides = stridesOf(target.map((t) => cards[vars.indexOf(t)]!));
  return vars.map((v) => {
    const j = target.indexOf(v);
    return j < 0 ? 0 : tStrides[j]!;
  });
}

/** Σ digit·step for every entry of a table with `cards` (last fastest). */
function mapBySteps(cards: readonly number[], step: readonly number[]): Int32Array {
  const map = new Int32Array(tableSize(cards));
  // Built from the fastest variable outwards: the block of the last d variables is repeated
  // once per state of the next one, shifted by its stride (a copy loop, no odometer).
  let block = 1;
  for (let d = cards.length - 1; d >= 0; d--) {
    const s = step[d]!;
    for (let x = 1; x < cards[d]!; x++) {
      const base = x * block,
        shift = x * s;
      for (let i = 0; i < block; i++) map[base + i] = map[i]! + shift;
    }
    block *= cards[d]!;
  }
  return map;
}

/**
 * Odometer over all assignments of `cards` (last fastest), calling `visit(entry, offsets)` with
 * one running offset per operand, each advanced by that operand's per-variable stride.
 * The offsets array is reused between calls.
 */
function walk(cards: readonly number[], steps: number[][], visit: (entry: number, offsets: number[]) => void): void {
  const k = cards.length;
  const n = tableSize(cards);
  const counter = new Int32Array(k);
  const offsets = steps.map(() => 0);
  for (let i = 0; i < n; i++) {
    visit(i, offsets);
    for (let d = k - 1; d >= 0; d--) {
      if (++counter[d]! < cards[d]!) {
        for (let o = 0; o < steps.length; o++) offsets[o]! += steps[o]![d]!;
        break;
      }
      counter[d] = 0;
      for (let o = 0; o < steps.length; o++) offsets[o]! -= steps[o]![d]! * (cards[d]! - 1);
    }
  }
}

/** Strides of `f` laid out along `vars` (0 for a variable `f` does not have). */
function stepsAlong(f: Factor, vars: readonly number[]): number[] {
  const strides = stridesOf(f.cards);
  return vars.map((v) => {
    const j = f.vars.indexOf(v);
    return j < 0 ? 0 : strides[j]!;
  });
}

export function factorProduct(a: Factor, b: Factor): Factor {
  const vars = [...a.vars];
  const cards = [...a.cards];
  b.vars.forEach((v, j) => {
    if (!vars.includes(v)) {
      vars.push(v);
      cards.push(b.cards[j]!);
    }
  });
  const values = new Float64Array(tableSize(cards));
  const av = a.values,
    bv = b.values;
  walk(cards, [stepsAlong(a, vars), stepsAlong(b, vars)], (i, [oa, ob]) => {
    values[i] = av[oa!]! * bv[ob!]!;
  });
  return { vars, cards, values };
}

/** Product of many factors (the empty product is the constant 1). */
export function productOf(factors: readonly Factor[]): Factor {
  return factors.reduce(factorProduct, constantFactor());
}

/**
 * Σ_v of the product of `factors` (every factor holding v: a bucket of variable elimination),
 * without building the product table: one odometer over the other variables, v summed innermost.
 * The same numbers, bit for bit, as projectOnto(productOf(factors), vars without v): the product
 * is taken in the same order and v's states are summed in the same order, but no clique-sized
 * table or chain of partial products is allocated.
 */
export function sumProductOut(factors: readonly Factor[], v: number): Factor {
  const vars: number[] = [],
    cards: number[] = [];
  let k = 1;
  for (const f of factors)
    for (let j = 0; j < f.vars.length; j++) {
      const u = f.vars[j]!;
      if (u === v) k = f.cards[j]!;
      else if (!vars.includes(u)) {
        vars.push(u);
        cards.push(f.cards[j]!);
      }
    }
  const m = factors.length,
    d = vars.length;
  const tables: Float64Array[] = [];
  // step[j·d + i]: factor j's stride along output variable i (0 when it does not hold it); back:
  // the same times (card − 1), what the odometer takes off when that digit wraps; vStep[j]: its
  // stride along v. Plain loops: a bucket is often a few hundred entries, and this runs per bucket.
  const vStep = new Int32Array(m),
    step = new Int32Array(m * d),
    back = new Int32Array(m * d);
  for (let j = 0; j < m; j++) {
    const f = factors[j]!;
    tables.push(f.values);
    for (let i = f.vars.length - 1, stride = 1; i >= 0; stride *= f.cards[i--]!) {
      const u = f.vars[i]!;
      if (u === v) vStep[j] = stride;
      else {
        const at = j * d + vars.indexOf(u);
        step[at] = stride;
        back[at] = stride * (f.cards[i]! - 1);
      }
    }
  }
  const values = new Float64Array(tableSize(cards));
  // The last output variable is walked in the kernels' own loops (a fixed stride per factor);
  // the odometer turns over the others, once per run of that variable's states.
  const run = d ? cards[d - 1]! : 1;
  const last = Int32Array.from(factors, (_, j) => (d ? step[j * d + d - 1]! : 0));
  const offsets = new Int32Array(m),
    counter = new Int32Array(d);
  for (let i = 0; i < values.length; i += run) {
    if (m === 1) sumRun1(values, i, run, tables[0]!, offsets[0]!, last[0]!, vStep[0]!, k);
    else if (m === 2) sumRun2(values, i, run, tables, offsets, last, vStep, k);
    else if (m === 3) sumRun3(values, i, run, tables, offsets, last, vStep, k);
    else if (m === 4) sumRun4(values, i, run, tables, offsets, last, vStep, k);
    else sumRunMany(values, i, run, tables, offsets, last, vStep, k);
    for (let a = d - 2; a >= 0; a--) {
      if (++counter[a]! < cards[a]!) {
        for (let j = 0, s = a; j < m; j++, s += d) offsets[j]! += step[s]!;
        break;
      }
      counter[a] = 0;
      for (let j = 0, s = a; j < m; j++, s += d) offsets[j]! -= back[s]!;
    }
  }
  return { vars, cards, values };
}

/*
 * The kernels: values[i + t] = Σ_x Π_j table_j[offset_j + t·last_j + x·vStep_j] for the run's
 * t, the product taken in factor order from 1 (1 · a = a exactly) and x summed from 0, as
 * the generic loop (sumRunMany) does; one per bucket size so that every table is a local (monomorphic loads).
 */
function sumRun1(
  values: Float64Array,
  i: number,
  run: number,
  a: Float64Array,
  oa: number,
  la: number,
  sa: number,
  k: number,
): void {
  for (let t = 0; t < run; t++, oa += la) {
    let sum = 0;
    for (let x = 0, pa = oa; x < k; x++, pa += sa) sum += a[pa]!;
    values[i + t] = sum;
  }
}

function sumRun2(
  values: Float64Array,
  i: number,
  run: number,
  tables: Float64Array[],
  offsets: Int32Array,
  last: Int32Array,
  vStep: Int32Array,
  k: number,
): void {
  const a = tables[0]!,
    b = tables[1]!;
  const la = last[0]!,
    lb = last[1]!,
    sa = vStep[0]!,
    sb = vStep[1]!;
  let oa = offsets[0]!,
    ob = offsets[1]!;
  for (let t = 0; t < run; t++, oa += la, ob += lb) {
    let sum = 0;
    for (let x = 0, pa = oa, pb = ob; x < k; x++, pa += sa, pb += sb) sum += a[pa]! * b[pb]!;
    values[i + t] = sum;
  }
}

function sumRun3(
  values: Float64Array,
  i: number,
  run: number,
  tables: Float64Array[],
  offsets: Int32Array,
  last: Int32Array,
  vStep: Int32Array,
  k: number,
): void {
  const a = tables[0]!,
    b = tables[1]!,
    c = tables[2]!;
  const la = last[0]!,
    lb = last[1]!,
    lc = last[2]!,
    sa = vStep[0]!,
    sb = vStep[1]!,
    sc = vStep[2]!;
  let oa = offsets[0]!,
    ob = offsets[1]!,
    oc = offsets[2]!;
  for (let t = 0; t < run; t++, oa += la, ob += lb, oc += lc) {
    let sum = 0;
    for (let x = 0, pa = oa, pb = ob, pc = oc; x < k; x++, pa += sa, pb += sb, pc += sc)
      sum += a[pa]! * b[pb]! * c[pc]!;
    values[i + t] = sum;
  }
}

function sumRun4(
  values: Float64Array,
  i: number,
  run: number,
  tables: Float64Array[],
  offsets: Int32Array,
  last: Int32Array,
  vStep: Int32Array,
  k: number,
): void {
  const a = tables[0]!,
    b = tables[1]!,
    c = tables[2]!,
    e = tables[3]!;
  const la = last[0]!,
    lb = last[1]!,
    lc = last[2]!,
    le = last[3]!,
    sa = vStep[0]!,
    sb = vStep[1]!,
    sc = vStep[2]!,
    se = vStep[3]!;
  let oa = offsets[0]!,
    ob = offsets[1]!,
    oc = offsets[2]!,
    oe = offsets[3]!;
  for (let t = 0; t < run; t++, oa += la, ob += lb, oc += lc, oe += le) {
    let sum = 0;
    for (let x = 0, pa = oa, pb = ob, pc = oc, pe = oe; x < k; x++, pa += sa, pb += sb, pc += sc, pe += se)
      sum += a[pa]! * b[pb]! * c[pc]! * e[pe]!;
    values[i + t] = sum;
  }
}

function sumRunMany(
  values: Float64Array,
  i: number,
  run: number,
  tables: Float64Array[],
  offsets: Int32Array,
  last: Int32Array,
  vStep: Int32Array,
  k: number,
): void {
  const m = tables.length;
  const at = Int32Array.from(offsets);
  for (let t = 0; t < run; t++) {
    let sum = 0;
    for (let x = 0; x < k; x++) {
      let p = 1;
      for (let j = 0; j < m; j++) p *= tables[j]![at[j]! + x * vStep[j]!]!;
      sum += p;
    }
    values[i + t] = sum;
    for (let j = 0; j < m; j++) at[j]! += last[j]!;
  }
}

/** Σ (or max, for max-product) over the variables not in `keep`; result vars follow `keep`. */
export function projectOnto(f: Factor, keep: readonly number[], op: 'sum' | 'max' = 'sum'): Factor {
  const cards = keep.map((v) => {
    const j = f.vars.indexOf(v);
    if (j < 0) throw new Error(`factor has no variable ${v}`);
    return f.cards[j]!;
  });
  const values = new Float64Array(tableSize(cards));
  const tStrides = stridesOf(cards);
  const step = f.vars.map((v) => {
    const j = keep.indexOf(v);
    return j < 0 ? 0 : tStrides[j]!;
  });
  const fv = f.values;
  if (op === 'sum')
    walk(f.cards, [step], (i, [o]) => {
      values[o!]! += fv[i]!;
    });
  else
    walk(f.cards, [step], (i, [o]) => {
      if (fv[i]! > values[o!]!) values[o!] = fv[i]!;
    });
  return { vars: [...keep], cards, values };
}

export function sumOut(f: Factor, v: number): Factor {
  return projectOnto(
    f,
    f.vars.filter((u) => u !== v),
    'sum',
  );
}

export function maxOut(f: Factor, v: number): Factor {
  return projectOnto(
    f,
    f.vars.filter((u) => u !== v),
    'max',
  );
}

/** φ restricted to `v = state`: the variable disappears. */
export function reduceFactor(f: Factor, v: number, state: number): Factor {
  const j = f.vars.indexOf(v);
  if (j < 0) return f;
  const vars = f.vars.filter((_, i) => i !== j);
  const cards = f.cards.filter((_, i) => i !== j);
  const values = new Float64Array(tableSize(cards));
  const strides = stridesOf(f.cards);
  const inner = strides[j]!,
    outer = inner * f.cards[j]!;
  // Entries with v = state form blocks of `inner` consecutive values, one block per `outer`.
  for (let o = 0, r = 0; o < f.values.length; o += outer) {
    values.set(f.values.subarray(o + state * inner, o + state * inner + inner), r);
    r += inner;
  }
  return { vars, cards, values };
}

/** Sets to 0 every entry whose `v` state is not `state` (evidence as an indicator), in place. */
export function zeroOtherStates(values: Float64Array, cards: readonly number[], position: number, state: number): void {
  let inner = 1;
  for (let i = cards.length - 1; i > position; i--) inner *= cards[i]!;
  const k = cards[position]!,
    outer = inner * k;
  for (let o = 0; o < values.length; o += outer) {
    for (let x = 0; x < k; x++) if (x !== state) values.fill(0, o + x * inner, o + x * inner + inner);
  }
}

/** Multiplies every entry by `lambda` of its state at `position` (a likelihood finding on that variable). */
export function scaleByState(
  values: Float64Array,
  cards: readonly number[],
  position: number,
  lambda: ArrayLike<number>,
): void {
  let inner = 1;
  for (let i = cards.length - 1; i > position; i--) inner *= cards[i]!;
  const k = cards[position]!,
    outer = inner * k;
  for (let o = 0; o < values.length; o += outer) {
    for (let x = 0; x < k; x++) {
      const l = lambda[x]!;
      if (l !== 1) for (let i = o + x * inner; i < o + x * inner + inner; i++) values[i]! *= l;
    }
  }
}

/** Divides by the sum in place and returns the table. */
export function normalized(values: Float64Array): Float64Array {
  let z = 0;
  for (let i = 0; i < values.length; i++) z += values[i]!;
  for (let i = 0; i < values.length; i++) values[i]! /= z;
  return values;
}
