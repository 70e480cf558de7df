/**
 * Writes a network as `.bayes` text (design/LANGUAGE.md §Networks): one `network` block with
 * its variables and one `P(X | parents) { … }` table per variable, rows keyed by the parents'
 * states. Names that are not identifiers (`0-3_days`, `12+`) are quoted. Numbers are written
 * in the shortest form that reads back to the same double, so BIF → .bayes → BIF is exact.
 * A table whose entries are all unknown (NaN, BIF's -1: to be learned) is written as an unknown
 * parameter with a uniform prior, `P(X | A) ~ Dirichlet(1)`; the language has no form for a
 * table only partly unknown, so that is an error.
 */
import { rowAssignment, type BayesianNetwork } from '../engine/network.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function bayesName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

export class PartlyUnknownTableError extends Error {}

export function writeBayesNetwork(net: BayesianNetwork): string {
  const out = [`network ${bayesName(net.name)} {`];
  for (const v of net.variables) out.push(`  variable ${bayesName(v.name)} { ${v.states.map(bayesName).join(', ')} }`);
  for (const cpt of net.cpts) {
    const child = net.variables[cpt.child]!;
    const k = child.states.length;
    const parents = cpt.parents.map((p) => bayesName(net.variables[p]!.name));
    const row = (r: number) =>
      `{ ${child.states.map((s, x) => `${bayesName(s)}: ${cpt.table[r * k + x]!}`).join(', ')} }`;
    const head = `  P(${bayesName(child.name)}${parents.length ? ' | ' + parents.join(', ') : ''})`;
    const unknown = cpt.table.filter(Number.isNaN).length;
    if (unknown === cpt.table.length) {
      out.push(`${head} ~ Dirichlet(1)`);
      continue;
    }
    if (unknown > 0)
      throw new PartlyUnknownTableError(
        `P(${child.name} | …) is only partly known: .bayes can mark a whole table unknown, not single entries`,
      );
    if (cpt.parents.length === 0) {
      out.push(`${head} ${row(0)}`);
      continue;
    }
    out.push(`${head} {`);
    for (let r = 0; r < cpt.table.length / k; r++) {
      const key = rowAssignment(net, cpt.child, r).map((s, i) => bayesName(net.variables[cpt.parents[i]!]!.states[s]!));
      out.push(`    ${key.join(', ')}: ${row(r)}`);
    }
    out.push('  }');
  }
  out.push('}');
  return out.join('\n') + '\n';
}
