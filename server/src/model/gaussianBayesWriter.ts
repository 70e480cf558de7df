/**
 * Writes a hybrid network (engine/gaussian) as `.bayes` text: the discrete part as bayesWriter.ts
 * writes it, then `variable X : real` and one `P(X | parents) ~ Normal(mean: b₀, P₁: b₁, …,
 * variance: σ²)` per continuous variable, numbers in the shortest form that reads back to the same
 * double, so NET → .bayes → NET is exact. A continuous variable with discrete parents (a CLG
 * table) is written as rows, one `d₁, d₂: Normal(…)` per configuration of its discrete parents.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { configurationStates, type HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { bayesName, writeBayesNetwork } from './bayesWriter.js';
import { UnwritableNetworkError } from './networkText.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The argument names of `Normal(…)`: a parent so named would read as the intercept or the variance. */
const RESERVED = new Set(['mean', 'variance']);

export function writeBayesHybrid(net: HybridNetwork): string {
  const discreteIndex = new Map<number, number>();
  const discrete: BayesianNetwork = { name: net.name, variables: [], cpts: [] };
  net.variables.forEach((v, i) => {
    if (v.kind === 'discrete') discreteIndex.set(i, discrete.variables.push({ name: v.name, states: v.states }) - 1);
  });
  const lines: string[] = [];
  const continuous: string[] = [];
  net.cpds.forEach((c, i) => {
    if (c.kind === 'discrete') {
      const { cpt } = c;
      discrete.cpts.push({
        child: discreteIndex.get(cpt.child)!,
        parents: cpt.parents.map((p) => discreteIndex.get(p)!),
        table: cpt.table,
      });
      return;
    }
    const name = net.variables[i]!.name;
    if (!IDENTIFIER.test(name) || RESERVED.has(name))
      throw new UnwritableNetworkError(`'${name}' cannot be written as a .bayes variable name: write Hugin NET (.net)`);
    const { cpd } = c;
    continuous.push(name);
    const parents = [...cpd.discreteParents, ...cpd.continuousParents].map((p) => net.variables[p]!.name);
    const given = parents.length ? ` | ${parents.join(', ')}` : '';
    const m = cpd.continuousParents.length;
    const normal = (row: number) => {
      const coefficients = cpd.continuousParents
        .map((p, j) => `, ${net.variables[p]!.name}: ${cpd.coefficients[row * m + j]!}`)
        .join('');
      return `Normal(mean: ${cpd.intercepts[row]!}${coefficients}, variance: ${cpd.variances[row]!})`;
    };
    if (cpd.discreteParents.length === 0) {
      lines.push(`  P(${name}${given}) ~ ${normal(0)}`);
      return;
    }
    // A conditional linear Gaussian table: one regression per configuration, keyed by the states.
    lines.push(`  P(${name}${given}) {`);
    for (let row = 0; row < cpd.intercepts.length; row++) {
      const keys = configurationStates(net, cpd, row).map((s, i) => {
        const parent = net.variables[cpd.discreteParents[i]!] as { states: string[] };
        return bayesName(parent.states[s]!);
      });
      lines.push(`    ${keys.join(', ')}: ${normal(row)}`);
    }
    lines.push('  }');
  });
  // Tables in parents-first order, as the network lists its CPDs.
  const head = writeBayesNetwork(discrete).replace(/}\n$/, '');
  return `${head}  variable ${continuous.join(', ')} : real\n${lines.join('\n')}\n}\n`;
}
