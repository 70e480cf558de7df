/** Answers of queries on belief networks: marginals, P(X | e), MPE, sensitivity, d-separation. */
import type {
  IndependenceResult,
  MarginalsResult,
  MpeResultEntry,
  ProbabilityResult,
  SensitivityResult,
} from '../../../server/src/protocol/runResult.js';
import { atLine, barChart } from '../charts.js';
import { h } from '../dom.js';
import { dataTable } from '../table.js';

const evidenceText = (e: Record<string, string>) =>
  Object.entries(e)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ') || 'none';

type Row = ProbabilityResult['table'][number];

export function probabilityView(e: ProbabilityResult): HTMLElement[] {
  const labels = e.table.map((r) => r.states.join(', '));
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
    barChart(`probability-${atLine(e)}`, `P(${e.variables.join(', ')} | evidence)`, labels, [
      { name: 'P', className: 'posterior', values: e.table.map((r) => r.p) },
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
    h('p', {}, `${e.network} · evidence: ${evidenceText(e.evidence)} · P(assignment, evidence) = ${e.probability}`),
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
