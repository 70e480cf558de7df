/**
 * Writes a network as `.bayes` text (design/LANGUAGE.md §Networks): one `network` block with
 * its variables and one `P(X | parents) { … }` table per variable, rows keyed by the parents'
 * states (each row `{ x: p, … }`, or `[p, …]` in large tables). Names that are not identifiers
 * (`0-3_days`, `12+`) are quoted. Numbers are written in the shortest form that reads back to
 * the same double, so BIF → .bayes → BIF is exact.
 * A table whose entries are all unknown (NaN, BIF's -1: to be learned) is written as an unknown
 * parameter with a uniform prior, `P(X | A) ~ Dirichlet(1)`; the language has no form for a
 * table only partly unknown, so that is an error.
 */
import { rowAssignment, type BayesianNetwork } from '../engine/network.js';
import { MAX_MODEL_CHARS } from '../language/parse.js';
import { UnwritableNetworkError } from './networkText.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Tables of more entries write each row as a list in the child's state order, `a, b: [0.1, 0.9]`:
 * naming the state at every entry nearly doubled big networks (mildew's 5.3 MB BIF became a
 * 9.9 MB .bayes, over the size a model may have, so `bayes convert` wrote a file nothing reads).
 */
const KEYED_ROWS_UP_TO = 1000;

export function bayesName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `odd net` → `odd_net`, `2020` → `_2020`: a name the language reads. */
function networkName(name: string): string {
  const spelled = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(spelled) ? spelled : `_${spelled}`;
}

export class PartlyUnknownTableError extends Error {}

export function writeBayesNetwork(net: BayesianNetwork): string {
  // The language quotes states, never the names of networks and variables (`variable "B-1"` does not
  // parse): the network's name, only a label, is spelled as a name; a variable's, which evidence and
  // queries use, cannot change, so such a network is refused rather than written unreadable.
  const odd = net.variables.find((v) => !IDENTIFIER.test(v.name));
  if (odd) {
    throw new UnwritableNetworkError(
      `.bayes names variables with letters, digits and _, so '${odd.name}' cannot be written: ` +
        'convert to BIF, XMLBIF or NET and import it (import network N from "file.bif")',
    );
  }
  const out = [`network ${networkName(net.name)} {`];
  for (const v of net.variables) out.push(`  variable ${v.name} { ${v.states.map(bayesName).join(', ')} }`);
  for (const cpt of net.cpts) {
    const child = net.variables[cpt.child]!;
    const k = child.states.length;
    const parents = cpt.parents.map((p) => net.variables[p]!.name);
    const listed = cpt.parents.length > 0 && cpt.table.length > KEYED_ROWS_UP_TO;
    const row = (r: number) =>
      listed
        ? `[${Array.from(cpt.table.subarray(r * k, r * k + k)).join(', ')}]`
        : `{ ${child.states.map((s, x) => `${bayesName(s)}: ${cpt.table[r * k + x]!}`).join(', ')} }`;
    const head = `  P(${child.name}${parents.length ? ' | ' + parents.join(', ') : ''})`;
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
  const text = out.join('\n') + '\n';
  // Written anyway, such a file would be refused by every reader of .bayes (bayes run, marginals, the editor).
  if (text.length > MAX_MODEL_CHARS) {
    throw new UnwritableNetworkError(
      `the network as .bayes is ${(text.length / 2 ** 20).toFixed(1)} MB, over the ` +
        `${MAX_MODEL_CHARS / 2 ** 20} MB a model may have: convert it to BIF, XMLBIF, NET or UAI and ` +
        `import it (import network N from "file.bif")`,
    );
  }
  return text;
}
