/**
 * What is known about the structure before the data is seen, for every search (bnlearn's
 * whitelist and blacklist): arcs that must be present (`require A -> B`), arcs that must not
 * (`forbid A -> B`), and tiers, an ordering of groups of variables in which no arc may point
 * from a later tier back to an earlier one (a cause cannot come after its effect in time).
 */
import { EngineError } from '../engineError.js';

export interface BackgroundKnowledgeSpec {
  require?: ReadonlyArray<readonly [number, number]>;
  forbid?: ReadonlyArray<readonly [number, number]>;
  /** Groups of variable indices, earliest first; variables in no tier are unconstrained. */
  tiers?: ReadonlyArray<readonly number[]>;
}

export class BackgroundKnowledge {
  private readonly forbidden: Uint8Array;
  private readonly required: Uint8Array;
  readonly requiredArcs: Array<[number, number]>;

  /** Throws an EngineError (naming the variables) when the knowledge contradicts itself. */
  constructor(
    readonly n: number,
    spec: BackgroundKnowledgeSpec = {},
    names?: readonly string[],
  ) {
    const name = (v: number) => names?.[v] ?? String(v);
    const check = (v: number) => {
      if (!(Number.isInteger(v) && v >= 0 && v < n)) {
        throw new EngineError(`background knowledge names variable ${v}, not one of the ${n}`);
      }
    };
    this.forbidden = new Uint8Array(n * n);
    this.required = new Uint8Array(n * n);
    for (const [a, b] of spec.forbid ?? []) {
      check(a);
      check(b);
      this.forbidden[a * n + b] = 1;
    }
    const tierOf = new Int32Array(n).fill(-1);
    (spec.tiers ?? []).forEach((tier, t) =>
      tier.forEach((v) => {
        check(v);
        if (tierOf[v] !== -1) throw new EngineError(`${name(v)} is in two tiers`);
        tierOf[v] = t;
      }),
    );
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (tierOf[a]! >= 0 && tierOf[b]! >= 0 && tierOf[a]! > tierOf[b]!) this.forbidden[a * n + b] = 1;
      }
    }
    this.requiredArcs = [];
    for (const [a, b] of spec.require ?? []) {
      check(a);
      check(b);
      if (a === b) throw new EngineError(`an arc cannot go from ${name(a)} to itself`);
      if (this.forbidden[a * n + b]) {
        const byTiers = tierOf[a]! > tierOf[b]! ? ' (by the tiers)' : '';
        throw new EngineError(`${name(a)} -> ${name(b)} is both required and forbidden${byTiers}`);
      }
      if (this.required[b * n + a]) {
        throw new EngineError(`both ${name(a)} -> ${name(b)} and ${name(b)} -> ${name(a)} are required`);
      }
      if (!this.required[a * n + b]) {
        this.required[a * n + b] = 1;
        this.requiredArcs.push([a, b]);
      }
    }
    const parents = this.requiredParents();
    const cycle = findCycle(parents);
    if (cycle) throw new EngineError(`the required arcs form a cycle: ${[...cycle, cycle[0]!].map(name).join(' -> ')}`);
  }

  get empty(): boolean {
    return this.requiredArcs.length === 0 && !this.forbidden.some((x) => x === 1);
  }
  forbids(from: number, to: number): boolean {
    return this.forbidden[from * this.n + to] === 1;
  }
  requires(from: number, to: number): boolean {
    return this.required[from * this.n + to] === 1;
  }
  /** Parent lists holding just the required arcs (a search's starting point). */
  requiredParents(): number[][] {
    const ps: number[][] = Array.from({ length: this.n }, () => []);
    for (const [a, b] of this.requiredArcs) ps[b]!.push(a);
    return ps;
  }
}

/** A directed cycle among parent lists, as its nodes in order, or undefined. */
function findCycle(parents: readonly (readonly number[])[]): number[] | undefined {
  const n = parents.length,
    state = new Uint8Array(n),
    stack: number[] = [];
  const visit = (v: number): number[] | undefined => {
    state[v] = 1;
    stack.push(v);
    for (const p of parents[v]!) {
      if (state[p] === 1) return stack.slice(stack.indexOf(p)).reverse();
      if (state[p] === 0) {
        const c = visit(p);
        if (c) return c;
      }
    }
    state[v] = 2;
    stack.pop();
    return undefined;
  };
  for (let v = 0; v < n; v++)
    if (state[v] === 0) {
      const c = visit(v);
      if (c) return c;
    }
  return undefined;
}
