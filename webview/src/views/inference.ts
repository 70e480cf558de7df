/** Answers of queries on belief networks: marginals, P(X | e), MPE, sensitivity, d-separation. */
import type {
  ContinuousResult,
  IndependenceResult,
  MarginalsResult,
  MpeResultEntry,
  ProbabilityResult,
  SensitivityResult,
} from '../../../server/src/protocol/runResult.js';
import { atLine, barChart } from '../charts.js';
import { h } from '../dom.js';
import { dataTable } from '../table.js';
import { prob } from '../format.js';

const evidenceText = (e: Record<string, string>) =>
  Object.entries(e)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ') || 'none';

/** Bars drawn for a joint table: the most probable states, then one "others" bar for the rest. */
export const TOP_STATES = 12;

/** The bars of a table: every row when few, else the TOP_STATES most probable and their complement. */
export function topStates(table: ProbabilityResult['table']): { labels: string[]; values: number[] } {
  if (table.length <= TOP_STATES + 1)
    return { labels: table.map((r) => r.states.join(', ')), values: table.map((r) => r.p) };
  const sorted = [...table].sort((a, b) => b.p - a.p);
  const top = sorted.slice(0, TOP_STATES);
  const rest = sorted.slice(TOP_STATES);
  return {
    labels: [...top.map((r) => r.states.join(', ')), `others (${rest.length} states)`],
    values: [...top.map((r) => r.p), rest.reduce((s, r) => s + r.p, 0)],
  };
}

type Row = ProbabilityResult['table'][number];

export function probabilityView(e: ProbabilityResult): HTMLElement[] {
  const bars = topStates(e.table);
  const some =
    bars.labels.length < e.table.length ? `: the ${TOP_STATES} most probable of ${e.table.length} states` : '';
  const label = `P(${e.variables.join(', ')} | evidence)${some}`;
  return [
    h(
      'p',
      {},
      `${e.network} · evidence: ${evidenceText(e.evidence)} · ${e.method}${e.samples ? `, ${e.samples} samples, seed ${e.seed}` : ''}` +
        (e.accepted === undefined
          ? ''
          : ` · accepted ${e.accepted} (acceptance rate ` +
            `${e.acceptanceRate!.toPrecision(4)} ± ${e.acceptanceStderr!.toPrecision(2)})`),
    ),
    barChart(`probability-${atLine(e)}`, label, bars.labels, [
      { name: 'P', className: 'posterior', values: bars.values },
    ]),
    dataTable(
      'probability table',
      [
        ...e.variables.map((v, i) => ({ title: v, value: (r: ProbabilityResult['table'][number]) => r.states[i] })),
        { title: 'P', value: (r) => r.p },
        ...(e.table.some((r) => r.stderr !== undefined)
          ? [{ title: 'std. error', value: (r: { stderr?: number }) => r.stderr }]
          : []),
        // With do(…): the same entries when the set variables are only observed.
        ...(e.observational
          ? [{ title: 'P if observed', value: (r: Row) => e.observational![e.table.indexOf(r)]?.p }]
          : []),
      ],
      e.table,
    ),
  ];
}

/** A continuous variable's posterior as text: mean, variance, and the mixture's components (a CLG network). */
export function continuousView(e: ContinuousResult): HTMLElement[] {
  const sampled = e.samples ? `, ${e.samples} samples, seed ${e.seed}` : '';
  const stderr = e.meanStderr !== undefined ? ` (std. error ${e.meanStderr.toPrecision(2)})` : '';
  const density = e.logEvidence !== undefined ? ` · ln density of the evidence ${e.logEvidence.toPrecision(8)}` : '';
  const components = e.components ?? [];
  return [
    h('p', {}, `${e.network} · evidence: ${evidenceText(e.evidence)} · ${e.method}${sampled}${density}`),
    h(
      'p',
      {},
      `${e.variable}: mean `,
      h('span', { class: 'num', 'data-value': String(e.mean) }, e.mean.toPrecision(8)),
      `${stderr}, variance `,
      h('span', { class: 'num', 'data-value': String(e.variance) }, e.variance.toPrecision(8)),
      components.length > 1 ? ` · a mixture of ${components.length} normals` : '',
    ),
    ...(e.note ? [h('p', { class: 'note' }, e.note)] : []),
    ...(components.length > 1
      ? [
          dataTable(
            `mixture components of ${e.variable}`,
            [
              { title: 'weight', value: (c: (typeof components)[number]) => c.weight },
              { title: 'mean', value: (c) => c.mean },
              { title: 'variance', value: (c) => c.variance },
            ],
            components,
          ),
        ]
      : []),
  ];
}

export function marginalsView(e: MarginalsResult): HTMLElement[] {
  const rows = Object.entries(e.marginals).flatMap(([v, d]) =>
    Object.entries(d).map(([s, p]) => ({ v, s, p, se: e.stderr?.[v]?.[s] })),
  );
  return [
    h('p', {}, `${e.network} · evidence: ${evidenceText(e.evidence)} · ${e.method}`),
    dataTable(
      'marginals',
      [
        { title: 'variable', value: (r) => r.v },
        { title: 'state', value: (r) => r.s },
        { title: 'P', value: (r) => r.p },
        ...(e.stderr ? [{ title: 'std. error', value: (r: { se?: number }) => r.se }] : []),
      ],
      rows,
    ),
  ];
}

export function mpeView(e: MpeResultEntry): HTMLElement[] {
  return [
    h(
      'p',
      {},
      `${e.network} · evidence: ${evidenceText(e.evidence)} · P(assignment, evidence) = `,
      h('span', { class: 'num', 'data-value': String(e.probability) }, prob(e.probability)),
    ),
    dataTable(
      'most probable explanation',
      [
        { title: 'variable', value: (r) => r[0] },
        { title: 'state', value: (r) => r[1] },
      ],
      Object.entries(e.assignment),
    ),
  ];
}

export function sensitivityView(e: SensitivityResult): HTMLElement[] {
  return [
    h('p', {}, `P(${e.target.variable} = ${e.target.state} | ${evidenceText(e.evidence)}) = ${e.value}`),
    dataTable(
      'sensitivity',
      [
        {
          title: 'parameter',
          value: (r) =>
            `P(${r.variable} = ${r.state}${Object.keys(r.parents).length ? ' | ' + evidenceText(r.parents) : ''})`,
        },
        { title: 'value', value: (r) => r.value },
        { title: '∂P/∂θ', value: (r) => r.derivative },
        {
          title: 'same decision over',
          value: (r) => r.interval?.join(' – '),
          format: (_, r) => (r.interval ? r.interval.map((b) => b.toFixed(4)).join(' – ') : '—'),
        },
      ],
      e.parameters,
    ),
  ];
}

export function independenceView(e: IndependenceResult): HTMLElement[] {
  return [
    h(
      'p',
      {},
      `${e.x.join(', ')} ${e.independent ? 'is independent of' : 'is not independent of'} ${e.y.join(', ')} given ${e.given.join(', ') || 'nothing'} (d-separation)` +
        (e.activePath ? ` · active trail: ${e.activePath.join(' – ')}` : ''),
    ),
  ];
}
