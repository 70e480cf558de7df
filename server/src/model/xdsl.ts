/**
 * GeNIe/SMILE's XDSL format, read only. `<smile>` holds `<nodes>` of `<cpt id="X">` elements
 * (`<state id="…"/>` per state, `<parents>A B</parents>`, `<probabilities>` with the first parent
 * slowest and X's states fastest — the engine's layout) and `<deterministic>` nodes (a
 * `<resultingstates>` list, one state per parent assignment, read as a 0/1 table). Noisy-MAX,
 * equation, decision and utility nodes are refused by name; `<extensions>` (GeNIe's layout,
 * names, comments) are skipped. Pure text in, network out.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import {
  assembleNetwork,
  NetworkSyntaxError,
  numbersIn,
  readWith,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadResult,
} from './networkText.js';
import { attribute, childNamed, childrenNamed, parseXml, type XmlElement } from './xml.js';

export function readXdsl(text: string, budgets: Budgets = DEFAULT_BUDGETS): NetworkReadResult {
  return readWith(() => parseXdsl(text, budgets));
}

function parseXdsl(text: string, budgets: Budgets): BayesianNetwork {
  const root = parseXml(text, budgets);
  if (root.name.toLowerCase() !== 'smile') {
    throw new NetworkSyntaxError(`expected a GeNIe XDSL file (<smile>), found <${root.name}>`, root.line);
  }
  const nodes = childNamed(root, 'nodes');
  if (!nodes) throw new NetworkSyntaxError('<smile> holds no <nodes>', root.line);
  const variables: DeclaredVariable[] = [];
  const tables: DeclaredTable[] = [];
  for (const node of nodes.children) {
    const kind = node.name.toLowerCase();
    const id = attribute(node, 'id');
    if (!id) throw new NetworkSyntaxError(`a <${node.name}> without an id`, node.line);
    if (kind !== 'cpt' && kind !== 'deterministic') {
      throw new NetworkSyntaxError(
        `node '${id}' is a <${node.name}> node: only <cpt> and <deterministic> nodes are read`,
        node.line,
      );
    }
    const own = childrenNamed(node, 'state').map((s) => {
      const sid = attribute(s, 'id');
      if (sid === undefined) throw new NetworkSyntaxError(`a <state> of '${id}' without an id`, s.line);
      return sid;
    });
    variables.push({ name: id, states: own, line: node.line });
    const parents = (childNamed(node, 'parents')?.text ?? '').split(/\s+/).filter((p) => p !== '');
    if (kind === 'cpt') {
      const p = childNamed(node, 'probabilities');
      if (!p) throw new NetworkSyntaxError(`node '${id}' has no <probabilities>`, node.line);
      const values = (expected: number) => numbersIn(p.text, p.line, expected, `the <probabilities> of '${id}'`);
      tables.push({ child: id, parents, line: p.line, values });
    } else {
      tables.push(deterministic(node, id, own, parents));
    }
  }
  return assembleNetwork(attribute(root, 'id') || 'unknown', variables, tables, budgets);
}

function deterministic(node: XmlElement, id: string, own: string[], parents: string[]): DeclaredTable {
  const resulting = childNamed(node, 'resultingstates');
  if (!resulting) throw new NetworkSyntaxError(`deterministic node '${id}' has no <resultingstates>`, node.line);
  const line = resulting.line;
  return {
    child: id,
    parents,
    line,
    values: (expected) => {
      const names = resulting.text.split(/\s+/).filter((s) => s !== '');
      const rows = expected / own.length;
      if (names.length !== rows) {
        throw new NetworkSyntaxError(
          `<resultingstates> of '${id}' lists ${names.length} states, expected ${rows}`,
          line,
        );
      }
      const table = new Float64Array(expected);
      const stateIndex = new Map(own.map((s, i) => [s, i]));
      names.forEach((s, r) => {
        const x = stateIndex.get(s);
        if (x === undefined) throw new NetworkSyntaxError(`'${s}' is not a state of '${id}'`, line);
        table[r * own.length + x] = 1;
      });
      return table;
    },
  };
}
