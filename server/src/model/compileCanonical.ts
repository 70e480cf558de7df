/**
 * `P(Y | causes) = noisy_or { … }` and `= noisy_max { … }` → the expanded CPT (see
 * engine/factors/canonicalModels.ts). The effect's and each cause's LAST state is "absent":
 * for `bool`, true is present and false absent.
 */
import type * as A from '../language/ast.js';
import type { BayesianNetwork, Cpt } from '../engine/network.js';
import { noisyMaxTable, noisyOrTable, type CanonicalCause } from '../engine/factors/canonicalModels.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from './compileError.js';

export function canonicalValues(
  table: A.TableDecl,
  model: A.CanonicalModel,
  net: BayesianNetwork,
  cpt: Cpt,
): Float64Array {
  const effect = net.variables[cpt.child]!;
  const causes = cpt.parents.map((p) => net.variables[p]!);
  const names = { causes: causes.map((c) => c.name), effect: effect.name };
  const entryOf = new Map<string, A.CanonicalEntry>();
  for (const e of model.entries) {
    if (entryOf.has(e.cause.text)) throw new CompileError(`'${e.cause.text}' is given twice`, e.cause.range);
    if (e.cause.text !== 'leak' && !names.causes.includes(e.cause.text)) {
      throw new CompileError(
        `'${e.cause.text}' is not a cause in P(${effect.name} | ${names.causes.join(', ')})`,
        e.cause.range,
      );
    }
    entryOf.set(e.cause.text, e);
  }
  for (const c of names.causes)
    if (!entryOf.has(c)) throw new CompileError(`no entry for the cause '${c}'`, model.range);
  const leakEntry = entryOf.get('leak');
  try {
    if (model.model === 'noisy_or') {
      if (effect.states.length !== 2)
        throw new CompileError(
          `noisy_or needs a two-state effect; '${effect.name}' has ${effect.states.length}: use noisy_max`,
          table.head.targets[0]!.range,
        );
      causes.forEach((c, i) => {
        if (c.states.length !== 2)
          throw new CompileError(
            `noisy_or needs two-state causes; '${c.name}' has ${c.states.length}: use noisy_max`,
            table.head.conditions[i]!.range,
          );
      });
      const p = names.causes.map((c) => probability(entryOf.get(c)!));
      const leak = leakEntry ? probability(leakEntry) : 0;
      return noisyOrTable(p, leak, names);
    }
    const k = effect.states.length;
    const list = (e: A.CanonicalEntry | undefined): Float64Array => {
      if (!e) {
        const d = new Float64Array(k);
        d[k - 1] = 1;
        return d;
      } // no leak: absent for sure
      if (!e.list)
        throw new CompileError(`give the leak as [${effect.states.map((s) => `P(${s})`).join(', ')}]`, e.range);
      return distribution(e.list, k, effect.name, e.range);
    };
    const canonicalCauses: CanonicalCause[] = causes.map((c, i) => {
      const e = entryOf.get(c.name)!;
      if (e.value || e.list)
        throw new CompileError(
          `give '${c.name}' one row per state but '${c.states[c.states.length - 1]}' (absent): ` +
            `{ state: [${effect.states.map((s) => `P(${s})`).join(', ')}] }`,
          e.range,
        );
      const distributions = c.states.slice(0, -1).map((s) => {
        const row = e.rows.find((r) => r.keys.length === 1 && r.keys[0]!.text === s);
        if (!row) throw new CompileError(`no row for ${c.name} = ${s}`, e.range);
        if (row.form !== 'list')
          throw new CompileError(`give the row as [${effect.states.map((y) => `P(${y})`).join(', ')}]`, row.range);
        return distribution(
          row.entries.map((x) => x.value),
          k,
          effect.name,
          row.range,
        );
      });
      for (const r of e.rows) {
        if (r.keys.length !== 1 || !c.states.slice(0, -1).includes(r.keys[0]!.text)) {
          throw new CompileError(
            `rows are keyed by a state of '${c.name}' other than its last (absent) one: ` +
              c.states.slice(0, -1).join(', '),
            r.range,
          );
        }
      }
      void i;
      return { states: c.states.length, distributions };
    });
    return noisyMaxTable(k, canonicalCauses, list(leakEntry), names);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message, model.range);
    throw e;
  }
}

function probability(e: A.CanonicalEntry): number {
  if (!e.value) throw new CompileError(`noisy_or takes one probability per cause: ${e.cause.text}: 0.8`, e.range);
  const p = e.value.value;
  if (!(p >= 0 && p <= 1)) throw new CompileError(`${e.value.text} is not a probability`, e.value.range);
  return p;
}

function distribution(
  numbers: readonly A.NumberLit[],
  k: number,
  effect: string,
  range: A.NodeBase['range'],
): Float64Array {
  if (numbers.length !== k)
    throw new CompileError(`${numbers.length} probabilities for the ${k} states of '${effect}'`, range);
  const d = Float64Array.from(numbers, (n) => n.value);
  let sum = 0;
  for (const x of d) {
    if (!(x >= 0 && x <= 1)) throw new CompileError('a probability must lie between 0 and 1', range);
    sum += x;
  }
  if (Math.abs(sum - 1) > 1e-6)
    throw new CompileError(`these probabilities sum to ${Number(sum.toPrecision(10))}, not 1`, range);
  for (let i = 0; i < k; i++) d[i]! /= sum;
  return d;
}
