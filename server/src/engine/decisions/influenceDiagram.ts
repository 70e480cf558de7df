/**
 * Influence diagrams (Howard & Matheson; Shachter 1986; Jensen, Jensen & Dittmer 1994): a belief
 * network of chance variables extended by decision variables, whose information arcs say what is
 * known when deciding, and by utility nodes, whose tables add up to the decision maker's utility.
 *
 * Decisions are taken in their declared order and nothing is forgotten (no-forgetting): decision
 * k knows its own information variables, and every earlier decision with its information. The
 * maximum expected utility is
 *   MEU = Σ_{I₀} max_{D₁} Σ_{I₁} max_{D₂} … max_{Dₙ} Σ_{Iₙ} P(X | D) Σ_u U_u,
 * where I₀ is what D₁ knows, I_k what D_{k+1} learns after D_k, and Iₙ the chance variables never
 * observed. It is computed by variable elimination in that order (last group first) on pairs of
 * potentials: probability factors φ multiply, utility factors ψ add. Summing out a chance
 * variable X gives φ' = Σ_X Πφ_X and ψ' = Σ_X Πφ_X · Σψ_X / φ' (Jensen et al.); maximising a
 * decision D keeps Πφ_D (it does not depend on D in a well-formed diagram) and ψ' = max_D Σψ_D,
 * and the argmax is D's optimal decision rule.
 */
import type { BayesianNetwork } from '../network.js';
import { ancestralSet, cardinality } from '../network.js';
import { cptFactor, indexMap, stridesOf, tableSize, type Factor } from '../factors/factor.js';
import { EngineError } from '../engineError.js';

export interface DecisionNode {
  /** The decision's variable (its states are the alternatives) in `network`. */
  variable: number;
  /** The variables known when deciding, as declared (no-forgetting adds the earlier ones). */
  information: number[];
}

export interface UtilityNode {
  name: string;
  /** Variables the utility depends on; `table` has one entry per assignment, first slowest. */
  parents: number[];
  table: Float64Array;
}

export interface InfluenceDiagram {
  name: string;
  /**
   * Chance and decision variables. A chance variable's CPT may condition on decisions; a
   * decision's own CPT (no parents) is ignored: its value is chosen, not drawn.
   */
  network: BayesianNetwork;
  /** Decisions in the order they are taken. */
  decisions: DecisionNode[];
  utilities: UtilityNode[];
}

/** The optimal rule of one decision: the best alternative for every state of what it knows. */
export interface DecisionRule {
  decision: number;
  /** Everything known when deciding (no-forgetting), earlier decisions and their information first. */
  context: number[];
  /** Best alternative per context row (the first context variable varies slowest). */
  choice: Int32Array;
  /**
   * Expected utility of each alternative per context row (rows × alternatives), with the later
   * decisions taken optimally; NaN where the context has probability 0. Absent when the table
   * would be larger than `detailLimit` entries.
   */
  expectedUtility?: Float64Array;
  /**
   * P(the chance part of the context | evidence, the earlier decisions as the row has them), per
   * row; absent with expectedUtility.
   */
  probability?: Float64Array;
}

export interface DiagramSolution {
  /** The maximum expected utility given the evidence. */
  meu: number;
  /** P(evidence) under the optimal strategy (1 without evidence). */
  evidenceProbability: number;
  rules: DecisionRule[];
}

export interface SolveOptions {
  /** Largest factor (entries) elimination may build. */
  budget?: number;
  /** Largest rules' expected-utility table to fill in (rows × alternatives; one solve each); default 1024. */
  detailLimit?: number;
  signal?: AbortSignal;
}

export const DEFAULT_DIAGRAM_BUDGET = 1 << 22;

const decisionName = (id: InfluenceDiagram, k: number) => id.network.variables[id.decisions[k]!.variable]!.name;

/**
 * What each decision knows under no-forgetting: its declared information, every earlier
 * decision and what that one knew. In order: earlier decisions' contexts first.
 */
export function informationSets(id: InfluenceDiagram): number[][] {
  const sets: number[][] = [];
  let known: number[] = [];
  id.decisions.forEach((d, k) => {
    const next = [...known];
    for (const v of d.information) if (!next.includes(v)) next.push(v);
    sets.push(next);
    known = [...next, id.decisions[k]!.variable];
  });
  return sets;
}

/** The variables reachable from `v` along the network's arcs. */
export function descendants(net: BayesianNetwork, v: number): Set<number> {
  const children: number[][] = net.variables.map(() => []);
  for (const cpt of net.cpts) for (const p of cpt.parents) children[p]!.push(cpt.child);
  const seen = new Set<number>();
  const stack = [...children[v]!];
  while (stack.length) {
    const u = stack.pop()!;
    if (seen.has(u)) continue;
    seen.add(u);
    for (const c of children[u]!) stack.push(c); // not a spread: a node may have 150,000 children
  }
  return seen;
}

/**
 * Checks that the diagram can be evaluated: decisions are distinct variables without CPT
 * parents, utilities have full tables, and nothing a decision knows can depend on that decision
 * or a later one (information must come before the decision in time). Throws EngineError.
 */
export function validateDiagram(id: InfluenceDiagram): void {
  const net = id.network;
  const decisionSet = new Set<number>();
  for (const d of id.decisions) {
    if (decisionSet.has(d.variable))
      throw new EngineError(`decision '${net.variables[d.variable]!.name}' is listed twice`);
    decisionSet.add(d.variable);
    if (net.cpts[d.variable]!.parents.length > 0) {
      throw new EngineError(
        `decision '${net.variables[d.variable]!.name}' is chosen, so it cannot have a table with parents`,
      );
    }
  }
  for (const u of id.utilities) {
    const size = tableSize(u.parents.map((p) => cardinality(net, p)));
    if (u.table.length !== size)
      throw new EngineError(`utility '${u.name}' has ${u.table.length} entries, not ${size}`);
    if (u.table.some((x) => !Number.isFinite(x)))
      throw new EngineError(`utility '${u.name}' has an entry that is not a finite number`);
  }
  // Every expected utility lies within the sum of the tables' largest magnitudes: when that sum
  // overflows, so may the answer (two utilities of 1e308 gave "MEU Infinity" with no diagnostic).
  const bound = id.utilities.reduce((s, u) => s + u.table.reduce((m, x) => Math.max(m, Math.abs(x)), 0), 0);
  if (!Number.isFinite(bound))
    throw new EngineError('the utilities together can exceed 1.8e308 in magnitude: rescale them (e.g. to thousands)');
  const sets = informationSets(id);
  id.decisions.forEach((d, k) => {
    for (const v of d.information) {
      const j = id.decisions.findIndex((e) => e.variable === v);
      if (j >= k) {
        throw new EngineError(
          j === k
            ? `'${decisionName(id, k)}' cannot be known before it is chosen`
            : `'${decisionName(id, k)}' cannot know '${decisionName(id, j)}', which is decided later`,
        );
      }
    }
    for (let j = k; j < id.decisions.length; j++) {
      const after = descendants(net, id.decisions[j]!.variable);
      for (const v of sets[k]!) {
        if (after.has(v)) {
          const later = j === k ? '' : `, taken after '${decisionName(id, k)}'`;
          throw new EngineError(
            `'${decisionName(id, k)}' cannot know '${net.variables[v]!.name}': ` +
              `it depends on decision '${decisionName(id, j)}'${later}`,
          );
        }
      }
      if (j > k && after.has(d.variable)) {
        throw new EngineError(
          `decision '${decisionName(id, k)}' depends on '${decisionName(id, j)}', which is taken later`,
        );
      }
    }
  });
}

interface Potentials {
  phi: Factor[];
  psi: Factor[];
}

/**
 * Solves the diagram given evidence (chance variables, or decisions fixed to an alternative):
 * the MEU and the optimal decision rules. Evidence is known before every decision, so it may
 * not name a variable that a decision the evidence leaves free can influence.
 */
export function solveInfluenceDiagram(
  id: InfluenceDiagram,
  evidence: ReadonlyMap<number, number> = new Map(),
  options: SolveOptions = {},
): DiagramSolution {
  validateDiagram(id);
  checkEvidence(id, evidence);
  const { meu, evidenceProbability, rules } = eliminate(id, evidence, options);
  const limit = options.detailLimit ?? 1024;
  const sets = informationSets(id);
  const free = id.decisions.map((d) => !evidence.has(d.variable));
  const out: DecisionRule[] = [];
  id.decisions.forEach((d, k) => {
    if (!free[k]) return;
    const rule = rules.get(d.variable)!;
    const context = sets[k]!;
    const cards = context.map((v) => cardinality(id.network, v));
    const rows = tableSize(cards);
    const choice = new Int32Array(rows);
    // The elimination's rule depends on a subset of the context (what is requisite): spread it.
    const map = indexMap(
      context,
      cards,
      rule.vars.filter((v) => context.includes(v)),
    );
    for (let r = 0; r < rows; r++) choice[r] = rule.choice[map[r]!]!;
    const entry: DecisionRule = { decision: d.variable, context, choice };
    const alternatives = cardinality(id.network, d.variable);
    if (rows * alternatives <= limit) Object.assign(entry, ruleDetail(id, evidence, k, context, cards, options));
    out.push(entry);
  });
  return { meu, evidenceProbability, rules: out };
}

/**
 * The expected utility of each alternative of decision `k` given the evidence, with the other
 * free decisions taken optimally (earlier ones as well: an alternative is committed to whatever
 * they learn). NaN entries never occur: impossible evidence throws.
 */
export function expectedUtilities(
  id: InfluenceDiagram,
  decision: number,
  evidence: ReadonlyMap<number, number> = new Map(),
  options: SolveOptions = {},
): Float64Array {
  validateDiagram(id);
  if (!id.decisions.some((d) => d.variable === decision)) {
    throw new EngineError(`'${id.network.variables[decision]!.name}' is not a decision`);
  }
  if (evidence.has(decision))
    throw new EngineError(`'${id.network.variables[decision]!.name}' is fixed by the evidence`);
  checkEvidence(id, evidence);
  const k = cardinality(id.network, decision);
  const out = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    const fixed = new Map(evidence);
    fixed.set(decision, a);
    out[a] = eliminate(id, fixed, options).meu;
  }
  return out;
}

/**
 * The expected value of perfect information about chance variable `x` before decision `k`:
 * the MEU when `x` is known at decision `k` (and, by no-forgetting, later) minus the MEU.
 */
export function valueOfInformation(
  id: InfluenceDiagram,
  x: number,
  decision: number,
  evidence: ReadonlyMap<number, number> = new Map(),
  options: SolveOptions = {},
): { voi: number; meu: number; meuInformed: number } {
  const k = id.decisions.findIndex((d) => d.variable === decision);
  const net = id.network;
  if (k < 0) throw new EngineError(`'${net.variables[decision]!.name}' is not a decision`);
  if (id.decisions.some((d) => d.variable === x))
    throw new EngineError(`'${net.variables[x]!.name}' is a decision, not a chance variable`);
  const informed: InfluenceDiagram = {
    ...id,
    decisions: id.decisions.map((d, j) =>
      j === k && !d.information.includes(x) ? { ...d, information: [...d.information, x] } : d,
    ),
  };
  const base = solveInfluenceDiagram(id, evidence, { ...options, detailLimit: 0 });
  let better: DiagramSolution;
  try {
    better = solveInfluenceDiagram(informed, evidence, { ...options, detailLimit: 0 });
  } catch (e) {
    if (e instanceof EngineError && /cannot know/.test(e.message)) {
      throw new EngineError(
        `'${net.variables[x]!.name}' cannot be known before '${net.variables[decision]!.name}': ` +
          'it depends on that decision or a later one',
      );
    }
    throw e;
  }
  return { voi: better.meu - base.meu, meu: base.meu, meuInformed: better.meu };
}

function checkEvidence(id: InfluenceDiagram, evidence: ReadonlyMap<number, number>): void {
  const net = id.network;
  for (const [v, s] of evidence) {
    if (!(s >= 0 && s < cardinality(net, v)))
      throw new EngineError(`state ${s} is outside '${net.variables[v]!.name}'`);
  }
  for (const d of id.decisions) {
    if (evidence.has(d.variable)) continue;
    const after = descendants(net, d.variable);
    for (const v of evidence.keys()) {
      if (after.has(v)) {
        throw new EngineError(
          `'${net.variables[v]!.name}' depends on decision '${net.variables[d.variable]!.name}', ` +
            'so it cannot be known before it: fix the decision in the evidence too',
        );
      }
    }
  }
}

/** EU per alternative and P(context) for each context row of decision k (earlier decisions in the context). */
function ruleDetail(
  id: InfluenceDiagram,
  evidence: ReadonlyMap<number, number>,
  k: number,
  context: number[],
  cards: number[],
  options: SolveOptions,
): { expectedUtility: Float64Array; probability: Float64Array } {
  const d = id.decisions[k]!.variable;
  const alternatives = cardinality(id.network, d);
  const rows = tableSize(cards);
  const expectedUtility = new Float64Array(rows * alternatives).fill(NaN);
  const probability = new Float64Array(rows);
  const strides = stridesOf(cards);
  for (let r = 0; r < rows; r++) {
    options.signal?.throwIfAborted();
    const fixed = new Map(evidence);
    let consistent = true;
    context.forEach((v, i) => {
      const s = Math.floor(r / strides[i]!) % cards[i]!;
      if (fixed.has(v) && fixed.get(v) !== s) consistent = false;
      fixed.set(v, s);
    });
    if (!consistent) continue;
    for (let a = 0; a < alternatives; a++) {
      fixed.set(d, a);
      const solved = eliminate(id, fixed, options, true);
      if (solved.evidenceProbability > 0) expectedUtility[r * alternatives + a] = solved.meu;
      if (a === 0) probability[r] = solved.evidenceProbability;
    }
  }
  // Each solve gave P(e, observed part of the row | the row's earlier decisions): divide by P(e).
  const base = evidenceWeight(id, evidence);
  for (let r = 0; r < rows; r++) probability[r] = base > 0 ? probability[r]! / base : 0;
  return { expectedUtility, probability };
}

/** P(e) with the free decisions fixed to their first alternative (decisions cannot change it). */
function evidenceWeight(id: InfluenceDiagram, evidence: ReadonlyMap<number, number>): number {
  return eliminate(id, evidence, {}, true).evidenceProbability;
}

interface Eliminated {
  meu: number;
  evidenceProbability: number;
  rules: Map<number, { vars: number[]; choice: Int32Array }>;
}

/**
 * The elimination proper. `lenient`: evidence of probability 0 gives MEU NaN instead of an error
 * (context rows that cannot happen).
 */
function eliminate(
  id: InfluenceDiagram,
  evidence: ReadonlyMap<number, number>,
  options: SolveOptions,
  lenient = false,
): Eliminated {
  const net = id.network;
  const budget = options.budget ?? DEFAULT_DIAGRAM_BUDGET;
  const decisionVars = new Set(id.decisions.map((d) => d.variable));
  const free = id.decisions.filter((d) => !evidence.has(d.variable));
  // Only the ancestors of utilities, of the evidence and of what decisions observe matter; other
  // chance nodes are barren and sum to 1. (An observed node is never barren: rules depend on it.)
  const seeds = [
    ...id.utilities.flatMap((u) => u.parents),
    ...evidence.keys(),
    ...id.decisions.flatMap((d) => d.information),
  ];
  const relevant = ancestralSet(net, seeds);
  for (const d of free) relevant.add(d.variable);
  const potentials: Potentials = { phi: [], psi: [] };
  for (const v of relevant) {
    if (decisionVars.has(v)) continue;
    potentials.phi.push(cptFactor(net, v));
  }
  for (const [v, s] of evidence) {
    const card = cardinality(net, v);
    const values = new Float64Array(card);
    values[s] = 1;
    potentials.phi.push({ vars: [v], cards: [card], values });
    relevant.add(v);
  }
  for (const u of id.utilities) {
    potentials.psi.push({ vars: [...u.parents], cards: u.parents.map((p) => cardinality(net, p)), values: u.table });
  }
  // Groups in elimination order: Iₙ, Dₙ, Iₙ₋₁, …, D₁, I₀ (fixed decisions are ordinary evidence).
  const sets = informationSets(id);
  const placed = new Set<number>();
  const groups: number[][] = [];
  free.forEach((d) => {
    const k = id.decisions.indexOf(d);
    const group = sets[k]!.filter((v) => relevant.has(v) && !decisionVars.has(v) && !placed.has(v));
    group.forEach((v) => placed.add(v));
    groups.push(group);
  });
  const unobserved = [...relevant].filter((v) => !decisionVars.has(v) && !placed.has(v));
  // Fixed decisions are summed out like chance variables (their indicator is their factor).
  for (const v of relevant) if (decisionVars.has(v) && evidence.has(v)) unobserved.push(v);
  const rules = new Map<number, { vars: number[]; choice: Int32Array }>();
  sumOutGroup(potentials, unobserved, budget, options.signal);
  for (let k = free.length - 1; k >= 0; k--) {
    const d = free[k]!.variable;
    rules.set(d, maximize(potentials, d, cardinality(net, d), budget));
    sumOutGroup(potentials, groups[k]!, budget, options.signal);
  }
  let p = 1;
  for (const f of potentials.phi) p *= f.values[0]!;
  let eu = 0;
  for (const f of potentials.psi) eu += f.values[0]!;
  if (!(p > 0)) {
    if (lenient) return { meu: NaN, evidenceProbability: 0, rules };
    throw new EngineError('evidence has probability 0');
  }
  return { meu: eu, evidenceProbability: p, rules };
}

/** Sums out a group of chance variables, smallest resulting factor first (min-weight). */
function sumOutGroup(pot: Potentials, group: number[], budget: number, signal?: AbortSignal): void {
  const left = new Set(group);
  while (left.size) {
    signal?.throwIfAborted();
    let best = -1,
      bestSize = Infinity;
    for (const v of left) {
      const size = scopeOf(pot, v).size;
      if (size < bestSize) {
        best = v;
        bestSize = size;
      }
    }
    left.delete(best);
    sumOut(pot, best, budget);
  }
}

function scopeOf(pot: Potentials, v: number): { vars: number[]; cards: number[]; size: number } {
  const vars: number[] = [];
  const cards: number[] = [];
  for (const f of [...pot.phi, ...pot.psi]) {
    if (!f.vars.includes(v)) continue;
    f.vars.forEach((u, i) => {
      if (!vars.includes(u)) {
        vars.push(u);
        cards.push(f.cards[i]!);
      }
    });
  }
  return { vars, cards, size: tableSize(cards) };
}

/** The values of `f` spread over a table on `vars` (which contain f's variables). */
function spread(f: Factor, vars: number[], cards: number[]): Float64Array {
  const map = indexMap(vars, cards, f.vars);
  const out = new Float64Array(map.length);
  for (let i = 0; i < map.length; i++) out[i] = f.values[map[i]!]!;
  return out;
}

/** Πφ and Σψ of the factors that mention v, over their joint scope with v LAST (fastest). */
function combine(
  pot: Potentials,
  v: number,
  budget: number,
): { vars: number[]; cards: number[]; phi: Float64Array; psi: Float64Array } {
  const scope = scopeOf(pot, v);
  const at = scope.vars.indexOf(v);
  const vars = [...scope.vars.filter((u) => u !== v), v];
  const cards = [...scope.cards.filter((_, i) => i !== at), scope.cards[at]!];
  const size = tableSize(cards);
  if (size > budget) {
    throw new EngineError(`evaluating the diagram needs a table of ${size} entries, over the budget of ${budget}`);
  }
  const phi = new Float64Array(size).fill(1);
  const psi = new Float64Array(size);
  pot.phi = pot.phi.filter((f) => {
    if (!f.vars.includes(v)) return true;
    const s = spread(f, vars, cards);
    for (let i = 0; i < size; i++) phi[i]! *= s[i]!;
    return false;
  });
  pot.psi = pot.psi.filter((f) => {
    if (!f.vars.includes(v)) return true;
    const s = spread(f, vars, cards);
    for (let i = 0; i < size; i++) psi[i]! += s[i]!;
    return false;
  });
  return { vars, cards, phi, psi };
}

function sumOut(pot: Potentials, v: number, budget: number): void {
  const { vars, cards, phi, psi } = combine(pot, v, budget);
  const k = cards[cards.length - 1]!;
  const rest = vars.slice(0, -1);
  const n = phi.length / k;
  const p = new Float64Array(n);
  const u = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0,
      w = 0;
    for (let x = 0; x < k; x++) {
      s += phi[r * k + x]!;
      w += phi[r * k + x]! * psi[r * k + x]!;
    }
    p[r] = s;
    u[r] = s > 0 ? w / s : 0;
  }
  const restCards = cards.slice(0, -1);
  pot.phi.push({ vars: rest, cards: restCards, values: p });
  pot.psi.push({ vars: rest, cards: restCards, values: u });
}

/**
 * max over decision d. Πφ_d does not depend on d where the context can happen, so the weighted
 * utility φ·ψ is maximised (equivalently ψ where φ > 0); where φ = 0 everywhere the first
 * alternative stands. Returns the rule: the best alternative per row of the remaining scope.
 */
function maximize(pot: Potentials, d: number, card: number, budget: number): { vars: number[]; choice: Int32Array } {
  if (!pot.phi.some((f) => f.vars.includes(d)) && !pot.psi.some((f) => f.vars.includes(d))) {
    // Nothing depends on the decision: every alternative is as good.
    return { vars: [], choice: Int32Array.of(0) };
  }
  if (!pot.phi.some((f) => f.vars.includes(d)))
    pot.phi.push({ vars: [d], cards: [card], values: new Float64Array(card).fill(1) });
  const { vars, cards, phi, psi } = combine(pot, d, budget);
  const rest = vars.slice(0, -1);
  const n = phi.length / card;
  const p = new Float64Array(n);
  const u = new Float64Array(n);
  const choice = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    let best = 0,
      bestValue = -Infinity,
      bestP = 0;
    for (let a = 0; a < card; a++) {
      const w = phi[r * card + a]!;
      const value = w > 0 ? psi[r * card + a]! : -Infinity;
      // Ties (within rounding) keep the earlier alternative, so rules are stable.
      const better =
        bestValue === -Infinity ? value > bestValue : value > bestValue + 1e-12 * Math.max(1, Math.abs(bestValue));
      if (better) {
        best = a;
        bestValue = value;
        bestP = w;
      }
    }
    if (bestValue === -Infinity) {
      best = 0;
      bestValue = 0;
      bestP = 0;
    }
    p[r] = bestP;
    u[r] = bestValue;
    choice[r] = best;
  }
  const restCards = cards.slice(0, -1);
  pot.phi.push({ vars: rest, cards: restCards, values: p });
  pot.psi.push({ vars: rest, cards: restCards, values: u });
  return { vars: rest, choice };
}
