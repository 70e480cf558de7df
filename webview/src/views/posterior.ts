/** Bayesian learning over hypothesis spaces (Mitchell §6.2–6.9): priors, posteriors, MAP/ML, version spaces. */
import type {
  GibbsResultEntry,
  LikelihoodResult,
  OptimalResult,
  ParameterResult,
  PosteriorResult,
  VersionSpaceResult,
} from '../../../server/src/protocol/runResult.js';
import { atLine, barChart, lineChart } from '../charts.js';
import { h } from '../dom.js';
import { prob } from '../format.js';
import { dataTable } from '../table.js';
import { ownValue, setOwn } from '../../../server/src/protocol/records.js';

export function posteriorView(e: PosteriorResult): HTMLElement[] {
  const names = e.rows.map((r) => r.hypothesis);
  // Keyed by hypothesis names, which may be `constructor` or `__proto__`: own keys only.
  const marks: Record<string, string[]> = {};
  const mark = (h: string, what: string) => setOwn(marks, h, [...(ownValue(marks, h) ?? []), what]);
  for (const m of e.map) mark(m, 'MAP');
  for (const m of e.ml) mark(m, 'ML');
  const chart = barChart(
    `posterior-${atLine(e)}`,
    `Prior and posterior of each hypothesis`,
    names,
    [
      { name: 'P(h)', className: 'prior', values: e.rows.map((r) => r.prior) },
      { name: 'P(h|D)', className: 'posterior', values: e.rows.map((r) => r.posterior) },
    ],
    marks,
  );
  const chosen = (r: { hypothesis: string }) => (e.map.includes(r.hypothesis) ? 'chosen' : undefined);
  const table = dataTable(
    'posterior table',
    [
      { title: 'h', value: (r) => r.hypothesis, className: chosen },
      { title: 'P(h)', value: (r) => r.prior },
      { title: 'P(D|h)', value: (r) => r.likelihood },
      { title: 'P(D|h)P(h)', value: (r) => r.product },
      { title: 'P(h|D)', value: (r) => r.posterior },
      { title: '', value: (r) => (ownValue(marks, r.hypothesis) ?? []).join(' ') },
    ],
    e.rows,
  );
  const note = e.evidencePossible
    ? h(
        'p',
        {},
        'P(D) = ',
        h('span', { class: 'num', 'data-value': String(e.evidence) }, prob(e.evidence)),
        ` · h_MAP = ${e.map.join(', ')} · h_ML = ${e.ml.join(', ')}`,
      )
    : h('p', { class: 'warning' }, 'The evidence has probability 0 under every hypothesis: no posterior exists.');
  return [note, chart, table, ...sequenceView(e)];
}

/** Small multiples drawn at most: a space of hundreds of hypotheses keeps its table, not hundreds of charts. */
const MAX_SEQUENCE_CHARTS = 12;

/**
 * Mitchell fig. 6.1: how P(h|d1…di) evolves as the data arrive, one small line chart per
 * hypothesis from its prior (0 data seen) to its posterior after each datum.
 */
function sequenceView(e: PosteriorResult): HTMLElement[] {
  if (!e.sequence?.length) return [];
  const steps = e.sequence;
  const charts = e.rows.slice(0, MAX_SEQUENCE_CHARTS).map((r, i) => {
    const points: Array<[number, number]> = [
      [0, r.prior],
      ...steps.map((s, j): [number, number] => [j + 1, s.posterior[i]!]),
    ];
    return lineChart(
      `sequence-${atLine(e)}-${r.hypothesis}`,
      `P(${r.hypothesis} | data seen)`,
      'data seen',
      `P(${r.hypothesis}|D)`,
      [{ name: r.hypothesis, className: 'posterior', points }],
      { yDomain: [0, 1], width: 240, height: 150, integerX: true },
    );
  });
  const more =
    e.rows.length > MAX_SEQUENCE_CHARTS
      ? [h('p', {}, `… and ${e.rows.length - MAX_SEQUENCE_CHARTS} more hypotheses (in the table below)`)]
      : [];
  const table = dataTable(
    'posterior after each datum',
    [
      { title: 'after', value: (s) => s.datum },
      ...e.rows.map((r, i) => ({
        title: `P(${r.hypothesis}|…)`,
        value: (s: { posterior: number[] }) => s.posterior[i],
      })),
    ],
    [
      { datum: '(prior)', posterior: e.rows.map((r) => r.prior) },
      ...steps.map((s, j) => ({ ...s, datum: `${j + 1}. ${s.datum}` })),
    ],
  );
  return [
    h('h3', {}, 'Datum by datum (Mitchell fig. 6.1)'),
    h('div', { class: 'small-multiples', 'aria-label': 'posterior after each datum' }, ...charts),
    ...more,
    table,
  ];
}

export function versionSpaceView(e: VersionSpaceResult): HTMLElement[] {
  const facts = dataTable(
    'version space summary',
    [
      { title: 'quantity', value: (r) => r[0] },
      { title: 'value', value: (r) => r[1] },
    ],
    [
      ['|H|', e.hypothesisCount],
      ['|VS_H,D|', e.versionSpaceSize],
      ['examples', e.examples],
      ['noise', e.noise],
      ['P(D)', e.evidence],
    ] as Array<[string, string | number]>,
  );
  const classes = dataTable(
    'error classes',
    [
      { title: 'errors', value: (c) => c.errors },
      { title: 'hypotheses', value: (c) => c.hypotheses },
      { title: 'P(D|h) each', value: (c) => c.likelihood },
      { title: 'P(h|D) each', value: (c) => c.posteriorEach },
    ],
    e.errorClasses,
  );
  const out = [facts, classes];
  if (e.boundaries && 'exceeded' in e.boundaries)
    out.push(h('p', { class: 'warning' }, `Boundary sets not computed: ${e.boundaries.exceeded}`));
  else if (e.boundaries)
    out.push(boundary('S (most specific)', e.boundaries.S), boundary('G (most general)', e.boundaries.G));
  if (e.members) out.push(boundary(`Members (${e.members.length})`, e.members));
  return out;
}

function boundary(title: string, hypotheses: string[][]): HTMLElement {
  return h(
    'div',
    { class: 'boundary' },
    h('h3', {}, title),
    h('ul', { 'aria-label': title }, ...hypotheses.map((hy) => h('li', { class: 'hypothesis' }, `⟨${hy.join(', ')}⟩`))),
  );
}

export function optimalView(e: OptimalResult): HTMLElement[] {
  return [
    h('p', {}, `Bayes optimal: ${e.optimal} · h_MAP = ${e.map} predicts ${e.mapPrediction}`),
    barChart(
      `optimal-${atLine(e)}`,
      'P(v|D) of each value',
      e.values.map((v) => v.value),
      [{ name: 'P(v|D)', className: 'posterior', values: e.values.map((v) => v.probability) }],
      { [e.optimal]: ['optimal'] },
    ),
  ];
}

export function gibbsView(e: GibbsResultEntry): HTMLElement[] {
  return [
    h('p', {}, `Gibbs algorithm, seed ${e.seed}, ${e.draws.length} draw(s)`),
    barChart(
      `gibbs-${atLine(e)}`,
      'Fraction of draws predicting each value',
      e.frequencies.map((f) => f.value),
      [{ name: 'fraction', className: 'posterior', values: e.frequencies.map((f) => f.fraction) }],
    ),
  ];
}

export function parameterView(e: ParameterResult): HTMLElement[] {
  const rows = e.values.map((v, i) => ({ v, i }));
  const q = e.probability;
  const range = q
    ? [
        h(
          'p',
          {},
          `P(${q.lower} ≤ θ(${q.value}) ≤ ${q.upper}) = `,
          h('span', { class: 'num', 'data-value': String(q.p) }, prob(q.p)),
        ),
      ]
    : [];
  return [
    ...range,
    dataTable(
      `${e.parameter} summary`,
      [
        { title: 'value', value: (r) => r.v },
        { title: 'prior α', value: (r) => e.prior[r.i] },
        { title: 'count', value: (r) => e.counts[r.i] },
        { title: 'posterior α', value: (r) => e.posterior[r.i] },
        { title: 'mean', value: (r) => e.mean[r.i] },
        { title: 'mode', value: (r) => e.mode?.[r.i] },
        ...(e.interval
          ? [
              {
                title: `${e.interval.level * 100}% interval`,
                value: (r: { i: number }) => e.interval!.bounds[r.i]!.join(' – '),
                format: (_: unknown, r: { i: number }) => e.interval!.bounds[r.i]!.map((b) => b.toFixed(4)).join(' – '),
              },
            ]
          : []),
      ],
      rows,
    ),
  ];
}

export function likelihoodView(e: LikelihoodResult): HTMLElement[] {
  return [
    dataTable(
      'likelihood',
      [
        { title: 'h', value: () => e.hypothesis },
        { title: 'P(E|h)', value: () => e.likelihood },
        { title: 'bits', value: () => e.bits },
      ],
      [e],
    ),
  ];
}
