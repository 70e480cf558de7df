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
export function sumProductOut(factors: readonly Factor[], v: number, pool?: TablePool): Factor {
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
  // step[j·d + i]: factor j's stride along output variable i (0 when it does not hold it); back:
  // the same times (card − 1), what the odometer takes off when that digit wraps; vStep[j]: its
  // stride along v. Plain loops: a bucket is often a few hundred entries, and this runs per bucket.
  const vStep = new Int32Array(m),
    step = new Int32Array(m * d),
    back = new Int32Array(m * d);
  const tables: Float64Array[] = [];
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
  // Every entry is written by the kernels: a pooled table need not be cleared.
  const values = pool ? pool.take(tableSize(cards)) : new Float64Array(tableSize(cards));
  // The last output variable is walked in the kernels' innermost loops but one (a fixed stride
  // per factor, `last`); the odometer turns over the others, once per run of its states.
  const walk: BucketWalk = {
    values,
    tables,
    cards: Int32Array.from(cards),
    run: d ? cards[d - 1]! : 1,
    k,
    vStep,
    step,
    back,
    last: Int32Array.from(factors, (_, j) => (d ? step[j * d + d - 1]! : 0)),
  };
  if (m === 1) sumBucket1(walk);
  else if (m === 2) sumBucket2(walk);
  else if (m === 3) sumBucket3(walk);
  else if (m === 4) sumBucket4(walk);
  else sumBucketMany(walk);
  return { vars, cards, values };
}

/**
 * Tables to write messages into, given back when consumed. Variable elimination makes a message
 * per step and reads it once (and a junction tree with transient tables a pending ratio per edge);
 * a table per message is memory written for the first time, which on the machines measured costs
 * ~12 µs a page (barley's 47 one-shot eliminations: ~4.5 k such pages, about a third of the
 * answer). A pool hands a consumed table's memory to the next message.
 */
export interface TablePool {
  /** A table of `size` entries (a view of a pooled one when one is free and large enough); not cleared. */
  take(size: number): Float64Array;
  /** `values` (taken from this pool) is no longer read: its memory may back the next take. */
  give(values: Float64Array): void;
}

/** A pool that reuses the smallest free table large enough, or makes one of exactly the size asked. */
export function tablePool(): TablePool {
  const free: Float64Array[] = [];
  return {
    take(size) {
      let best = -1;
      for (let i = 0; i < free.length; i++) {
        const n = free[i]!.length;
        if (n >= size && (best < 0 || n < free[best]!.length)) best = i;
      }
      if (best < 0) return new Float64Array(size);
      const table = free[best]!;
      free[best] = free[free.length - 1]!;
      free.pop();
      return table.length === size ? table : table.subarray(0, size);
    },
    give(values) {
      // The whole buffer goes back, not the view: a later, larger take may use all of it.
      free.push(new Float64Array(values.buffer, 0, values.buffer.byteLength / 8));
    },
  };
}

/** What a bucket's kernel walks: see sumProductOut for the strides. */
interface BucketWalk {
  values: Float64Array;
  tables: Float64Array[];
  /** The output variables' cards; the last one's states make a run. */
  cards: Int32Array;
  run: number;
  /** v's states. */
  k: number;
  vStep: Int32Array;
  step: Int32Array;
  back: Int32Array;
  last: Int32Array;
}

/*
 * The kernels: values[i + t] = Σ_x Π_j table_j[offset_j + t·last_j + x·vStep_j] for each run i and
 * its t, the product taken in factor order from 1 (1 · a = a exactly) and x summed from 0, as the
 * generic kernel (sumBucketMany) does. One per bucket size, each with its whole loop and odometer
 * (not a call per run from one big function): every table and offset is a local, and each kernel
 * is a small function that V8 optimises on its own. A driver calling a kernel per run, with all of
 * them inlined, took 0.1–0.3 s to optimise (barley, loaded machine) while its loop ran unoptimised;
 * callgrind (fresh process, --single-threaded) counted munin1's answer at 1,331 M instructions
 * that way and 1,236 M this way (barley: 1,563 M and 1,551 M).
 */
function sumBucket1(w: BucketWalk): void {
  const { values, cards, step, back, run, k } = w;
  const a = w.tables[0]!,
    la = w.last[0]!,
    sa = w.vStep[0]!;
  const counter = new Int32Array(cards.length);
  let oa = 0;
  for (let i = 0; i < values.length; i += run) {
    for (let t = 0, pa = oa; t < run; t++, pa += la) {
      let sum = 0;
      for (let x = 0, qa = pa; x < k; x++, qa += sa) sum += a[qa]!;
      values[i + t] = sum;
    }
    for (let c = cards.length - 2; c >= 0; c--) {
      if (++counter[c]! < cards[c]!) {
        oa += step[c]!;
        break;
      }
      counter[c] = 0;
      oa -= back[c]!;
    }
  }
}

function sumBucket2(w: BucketWalk): void {
  const { values, cards, step, back, run, k } = w;
  const d = cards.length;
  const a = w.tables[0]!,
    b = w.tables[1]!,
    la = w.last[0]!,
    lb = w.last[1]!,
    sa = w.vStep[0]!,
    sb = w.vStep[1]!;
  const counter = new Int32Array(d);
  let oa = 0,
    ob = 0;
  for (let i = 0; i < values.length; i += run) {
    for (let t = 0, pa = oa, pb = ob; t < run; t++, pa += la, pb += lb) {
      let sum = 0;
      for (let x = 0, qa = pa, qb = pb; x < k; x++, qa += sa, qb += sb) sum += a[qa]! * b[qb]!;
      values[i + t] = sum;
    }
    for (let c = d - 2; c >= 0; c--) {
      if (++counter[c]! < cards[c]!) {
        oa += step[c]!;
        ob += step[d + c]!;
        break;
      }
      counter[c] = 0;
      oa -= back[c]!;
      ob -= back[d + c]!;
    }
  }
}

function sumBucket3(w: BucketWalk): void {
  const { values, cards, step, back, run, k } = w;
  const d = cards.length;
  const a = w.tables[0]!,
    b = w.tables[1]!,
    e = w.tables[2]!,
    la = w.last[0]!,
    lb = w.last[1]!,
    le = w.last[2]!,
    sa = w.vStep[0]!,
    sb = w.vStep[1]!,
    se = w.vStep[2]!;
  const counter = new Int32Array(d);
  let oa = 0,
    ob = 0,
    oe = 0;
  for (let i = 0; i < values.length; i += run) {
    for (let t = 0, pa = oa, pb = ob, pe = oe; t < run; t++, pa += la, pb += lb, pe += le) {
      let sum = 0;
      for (let x = 0, qa = pa, qb = pb, qe = pe; x < k; x++, qa += sa, qb += sb, qe += se)
        sum += a[qa]! * b[qb]! * e[qe]!;
      values[i + t] = sum;
    }
    for (let c = d - 2; c >= 0; c--) {
      if (++counter[c]! < cards[c]!) {
        oa += step[c]!;
        ob += step[d + c]!;
        oe += step[2 * d + c]!;
        break;
      }
      counter[c] = 0;
      oa -= back[c]!;
      ob -= back[d + c]!;
      oe -= back[2 * d + c]!;
    }
  }
}

function sumBucket4(w: BucketWalk): void {
  const { values, cards, step, back, run, k } = w;
  const d = cards.length;
  const a = w.tables[0]!,
    b = w.tables[1]!,
    e = w.tables[2]!,
    g = w.tables[3]!,
    la = w.last[0]!,
    lb = w.last[1]!,
    le = w.last[2]!,
    lg = w.last[3]!,
    sa = w.vStep[0]!,
    sb = w.vStep[1]!,
    se = w.vStep[2]!,
    sg = w.vStep[3]!;
  const counter = new Int32Array(d);
  let oa = 0,
    ob = 0,
    oe = 0,
    og = 0;
  for (let i = 0; i < values.length; i += run) {
    for (let t = 0, pa = oa, pb = ob, pe = oe, pg = og; t < run; t++, pa += la, pb += lb, pe += le, pg += lg) {
      let sum = 0;
      for (let x = 0, qa = pa, qb = pb, qe = pe, qg = pg; x < k; x++, qa += sa, qb += sb, qe += se, qg += sg)
        sum += a[qa]! * b[qb]! * e[qe]! * g[qg]!;
      values[i + t] = sum;
    }
    for (let c = d - 2; c >= 0; c--) {
      if (++counter[c]! < cards[c]!) {
        oa += step[c]!;
        ob += step[d + c]!;
        oe += step[2 * d + c]!;
        og += step[3 * d + c]!;
        break;
      }
      counter[c] = 0;
      oa -= back[c]!;
      ob -= back[d + c]!;
      oe -= back[2 * d + c]!;
      og -= back[3 * d + c]!;
    }
  }
}

function sumBucketMany(w: BucketWalk): void {
  const { values, tables, cards, step, back, last, vStep, run, k } = w;
  const d = cards.length,
    m = tables.length;
  const counter = new Int32Array(d),
    offsets = new Int32Array(m),
    at = new Int32Array(m);
  for (let i = 0; i < values.length; i += run) {
    at.set(offsets);
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
    for (let c = d - 2; c >= 0; c--) {
      if (++counter[c]! < cards[c]!) {
        for (let j = 0, s = c; j < m; j++, s += d) offsets[j]! += step[s]!;
        break;
      }
      counter[c] = 0;
      for (let j = 0, s = c; j < m; j++, s += d) offsets[j]! -= back[s]!;
    }
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
