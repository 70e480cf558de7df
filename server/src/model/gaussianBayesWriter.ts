/**
 * Writes a hybrid network (engine/gaussian) as `.bayes` text: the discrete part as bayesWriter.ts
 * writes it, then `variable X : real` and one `P(X | parents) ~ Normal(mean: b₀, P₁: b₁, …,
 * variance: σ²)` per continuous variable, numbers in the shortest form that reads back to the same
 * double, so NET → .bayes → NET is exact. Continuous variables with discrete parents (CLG tables)
 * have no form in the language yet: such a network is refused, naming the variable.
 */
import type { BayesianNetwork } from '../engine/network.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { writeBayesNetwork } from './bayesWriter.js';
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
    if (cpd.discreteParents.length > 0)
      throw new UnwritableNetworkError(
        `'${name}' has discrete parents (a CLG table), which .bayes cannot write yet: write Hugin NET (.net)`,
      );
    continuous.push(name);
    const parents = cpd.continuousParents.map((p) => net.variables[p]!.name);
    const given = parents.length ? ` | ${parents.join(', ')}` : '';
    const coefficients = parents.map((p, j) => `, ${p}: ${cpd.coefficients[j]!}`).join('');
    lines.push(
      `  P(${name}${given}) ~ Normal(mean: ${cpd.intercepts[0]!}${coefficients}, variance: ${cpd.variances[0]!})`,
    );
  });
  // Tables in parents-first order, as the network lists its CPDs.
  const head = writeBayesNetwork(discrete).replace(/}\n$/, '');
  return `${head}  variable ${continuous.join(', ')} : real\n${lines.join('\n')}\n}\n`;
}
