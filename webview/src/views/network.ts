/** Belief networks: the DAG with each variable's posterior marginal, evidence marked, the CPT on hover. */
import type { CptJson, NetworkResult } from '../../../server/src/protocol/runResult.js';
import { h } from '../dom.js';
import { prob } from '../format.js';
import { graphView, type GraphNode } from '../graph.js';
import { post } from '../host.js';
import { dataTable } from '../table.js';

/** Rows of a CPT shown in a tooltip; the rest are counted. */
const TOOLTIP_ROWS = 12;

export function networkView(e: NetworkResult): HTMLElement[] {
  const byName = new Map(e.variables.map((v) => [v.name, v]));
  const decisions = new Map((e.decisions ?? []).map((d) => [d.name, d]));
  const nodes: GraphNode[] = e.variables.map((v) => ({
    id: v.name,
    // A decision is chosen, not drawn: its "marginal" would only be the uniform placeholder.
    ...(decisions.has(v.name)
      ? { role: 'decision' as const }
      : { bars: v.states.map((state, i) => ({ state, p: v.marginal[i]! })) }),
    evidence: v.evidence,
    tooltip: () =>
      decisions.has(v.name)
        ? decisionTip(v.name, v.states, decisions.get(v.name)!.information)
        : cptTable(v.name, v.states, v.cpt, TOOLTIP_ROWS),
  }));
  for (const u of e.utilities ?? []) nodes.push({ id: u.name, role: 'utility', tooltip: () => utilityTable(u) });
  const edges = [
    ...e.variables.flatMap((v) => v.parents.map((p) => ({ from: p, to: v.name }))),
    ...[...decisions.values()].flatMap((d) =>
      d.information.map((i) => ({ from: i, to: d.name, className: 'information', title: `${d.name} knows ${i}` })),
    ),
    ...(e.utilities ?? []).flatMap((u) => u.parents.map((p) => ({ from: p, to: u.name }))),
  ];
  const evidence = e.variables.filter((v) => v.evidence !== undefined).map((v) => `${v.name} = ${v.evidence}`);
  const samplers = { lw: 'likelihood weighting', rejection: 'rejection sampling', gibbs: 'Gibbs sampling', exact: '' };
  const sampler = samplers[e.method];
  const how =
    e.method === 'exact' ? 'exact (junction tree)' : `${sampler}, ${e.samples ?? '?'} samples, seed ${e.seed ?? '?'}`;
  const graph = graphView(nodes, edges, {
    name: `network-${e.network}`,
    label: `Network ${e.network}`,
    onActivate: (id) => {
      const range = byName.get(id)?.declaration ?? e.utilities?.find((u) => u.name === id)?.declaration;
      post({ type: 'reveal', network: e.network, variable: id, ...(range ? { range } : {}) });
    },
  });
  const rows = e.variables.flatMap((v) =>
    v.states.map((s, i) => ({
      variable: v.name,
      state: s,
      p: v.marginal[i]!,
      se: v.stderr?.[i],
      observed: v.evidence === s,
    })),
  );
  const table = h(
    'details',
    { class: 'marginals' },
    h('summary', {}, `Marginals table (${rows.length} rows)`),
    dataTable(
      `marginals of ${e.network}`,
      [
        { title: 'variable', value: (r) => r.variable },
        { title: 'state', value: (r) => r.state },
        { title: 'P(state | e)', value: (r) => r.p },
        ...(e.method === 'exact' ? [] : [{ title: 'std. error', value: (r: { se?: number }) => r.se }]),
        { title: 'observed', value: (r) => (r.observed ? 'yes' : '') },
      ],
      rows,
    ),
  );
  return [
    h(
      'p',
      {},
      `${e.variables.length} variables · evidence: ${evidence.length ? evidence.join(', ') : 'none'} · ${how}`,
    ),
    ...(e.note ? [h('p', { class: 'warning' }, e.note)] : []),
    graph,
    table,
  ];
}

function decisionTip(name: string, alternatives: string[], information: string[]): HTMLElement {
  const knows = information.length
    ? `knows: ${information.join(', ')} (and every earlier decision)`
    : 'knows every earlier decision';
  return h(
    'div',
    { class: 'cpt' },
    h('strong', {}, `decision ${name}`),
    h('p', {}, `alternatives: ${alternatives.join(', ')}`),
    h('p', {}, knows),
  );
}

type Utility = NonNullable<NetworkResult['utilities']>[number];

function utilityTable(u: Utility): HTMLElement {
  const head = h('tr', {}, ...u.parents.map((p) => h('th', { scope: 'col' }, p)), h('th', { scope: 'col' }, 'utility'));
  const body = u.rows
    .slice(0, TOOLTIP_ROWS)
    .map((r) =>
      h(
        'tr',
        {},
        ...u.parents.map((p) => h('td', {}, r.given[p] ?? '')),
        h('td', { class: 'num', 'data-value': String(r.utility) }, String(r.utility)),
      ),
    );
  const title = `utility ${u.name}(${u.parents.join(', ')})`;
  const table = h('table', { 'aria-label': title }, h('thead', {}, head), h('tbody', {}, ...body));
  return h('div', { class: 'cpt' }, h('strong', {}, title), table);
}

/** A CPT as a table: one row per parent configuration, one column per state. */
export function cptTable(variable: string, states: string[], cpt: CptJson, limit = Infinity): HTMLElement {
  const shown = cpt.rows.slice(0, limit);
  const head = h(
    'tr',
    {},
    ...cpt.parents.map((p) => h('th', { scope: 'col' }, p)),
    ...states.map((s) => h('th', { scope: 'col' }, s)),
  );
  const body = shown.map((r) =>
    h(
      'tr',
      {},
      ...cpt.parents.map((p) => h('td', {}, r.given[p] ?? '')),
      ...states.map((s) =>
        h('td', { class: 'num', 'data-value': String(r.distribution[s] ?? '') }, prob(r.distribution[s])),
      ),
    ),
  );
  const more =
    cpt.rows.length > shown.length
      ? h('p', {}, `… ${cpt.rows.length - shown.length} more rows (click to open the table)`)
      : null;
  const title = `P(${variable}${cpt.parents.length ? ' | ' + cpt.parents.join(', ') : ''})`;
  return h(
    'div',
    { class: 'cpt' },
    h('strong', {}, title),
    h('table', { 'aria-label': title }, h('thead', {}, head), h('tbody', {}, ...body)),
    more,
  );
}
