/** Learning results: EM traces, mixtures, naive Bayes classes, evaluations, learned structures, regressions. */
import type {
  ClassifyResult,
  EvaluationResult,
  LearnedNetworkResult,
  LearningCurveResult,
  LeastSquaresResult,
  LogisticResult,
  MixtureResult,
  StructureResultEntry,
} from '../../../server/src/protocol/runResult.js';
import type { NetworkEvaluationResult } from '../../../server/src/protocol/runResult.js';
import { atLine, barChart, lineChart } from '../charts.js';
import { h } from '../dom.js';
import { num, prob } from '../format.js';
import { graphView, type GraphEdge } from '../graph.js';
import { copyButton, dataTable } from '../table.js';
import { tsvText } from '../tsv.js';
import { mixtureChart } from './mixture.js';
import { cptTable } from './network.js';

/**
 * Log-likelihood after each iteration (index 0 = the start). The start is often far below the
 * rest and flattens it: a toggle draws the trace from iteration 1.
 */
function traceChart(name: string, trace: number[]): HTMLElement | null {
  if (trace.length < 2) return null;
  let skip = false;
  const chart = () =>
    lineChart(name, 'Log-likelihood per iteration', 'iteration', 'log-likelihood', [
      {
        name: 'log-likelihood',
        className: 'posterior',
        points: trace.flatMap((y, i) => (skip && i === 0 ? [] : [[i, y] as [number, number]])),
      },
    ]);
  let drawn = chart();
  const toggle = h(
    'button',
    { class: 'state-choice trace-skip', 'aria-pressed': 'false' },
    'Hide the start (iteration 0)',
  );
  toggle.addEventListener('click', () => {
    skip = !skip;
    toggle.setAttribute('aria-pressed', String(skip));
    toggle.textContent = skip ? 'Show the start (iteration 0)' : 'Hide the start (iteration 0)';
    const next = chart();
    drawn.replaceWith(next);
    drawn = next;
  });
  return h('div', { class: 'trace' }, ...(trace.length > 2 ? [toggle] : []), drawn);
}

export function learnedNetworkView(e: LearnedNetworkResult): HTMLElement[] {
  const status = `${e.method} · ${e.records} records (${e.patterns} patterns) · ${e.iterations} iterations · ${e.converged ? 'converged' : 'not converged'} · log-likelihood ${num(e.logLikelihood, 6)}`;
  const out: HTMLElement[] = [h('p', {}, status)];
  if (e.hidden.length) out.push(h('p', {}, `Hidden (no data): ${e.hidden.join(', ')}`));
  const trace = traceChart(`em-${e.network}-${atLine(e)}`, e.trace);
  if (trace) out.push(trace);
  if (e.runs.length > 1) {
    out.push(
      dataTable(
        'restarts',
        [
          { title: 'restart', value: (r) => r.restart },
          { title: 'log-likelihood', value: (r) => r.logLikelihood },
          { title: 'iterations', value: (r) => r.iterations },
          { title: 'converged', value: (r) => String(r.converged) },
        ],
        e.runs,
      ),
    );
  }
  const cpts = Object.entries(e.cpts).map(([v, cpt]) => cptTable(v, Object.keys(cpt.rows[0]?.distribution ?? {}), cpt));
  if (cpts.length || !e.regressions)
    out.push(h('details', { class: 'cpts' }, h('summary', {}, `Learned CPTs (${cpts.length})`), ...cpts));
  out.push(...regressionTables(e));
  return out;
}

/** A continuous variable's learnt regressions: one row per configuration of its discrete parents. */
function regressionTables(e: LearnedNetworkResult): HTMLElement[] {
  return Object.entries(e.regressions ?? {}).map(([name, r]) =>
    dataTable(
      `${name} | ${[...r.discreteParents, ...r.continuousParents].join(', ') || '(no parents)'}`,
      [
        ...r.discreteParents.map((p, i) => ({
          title: p,
          value: (c: (typeof r.configurations)[number]) => c.given[i]!,
        })),
        { title: 'intercept', value: (c) => c.intercept },
        ...r.continuousParents.map((p) => ({
          title: p,
          value: (c: (typeof r.configurations)[number]) => c.coefficients[p]!,
        })),
        { title: 'variance', value: (c) => c.variance },
        { title: 'records', value: (c) => c.records },
      ],
      r.configurations,
    ),
  );
}

export function mixtureView(e: MixtureResult): HTMLElement[] {
  const k = e.weights.length;
  const rows = e.weights.map((w, j) => ({ j, w }));
  const out: HTMLElement[] = [
    h(
      'p',
      {},
      `${k} components over ${e.dimensions.join(', ')} · ${e.iterations} iterations · ${e.converged ? 'converged' : 'not converged'} · log-likelihood ${num(e.logLikelihood, 6)} · BIC ${num(e.bic, 6)}`,
    ),
  ];
  const chart = mixtureChart(e);
  if (chart) out.push(chart);
  const trace = traceChart(`mixture-${atLine(e)}`, e.trace);
  if (trace) out.push(trace);
  out.push(
    dataTable(
      'mixture components',
      [
        { title: 'component', value: (r) => r.j + 1 },
        { title: 'weight', value: (r) => r.w },
        ...e.dimensions.map((d, i) => ({ title: `mean ${d}`, value: (r: { j: number }) => e.means[r.j]![i] })),
        ...e.dimensions.map((d, i) => ({ title: `var ${d}`, value: (r: { j: number }) => e.covariances[r.j]![i]![i] })),
      ],
      rows,
    ),
  );
  return out;
}

/** Results list at most SHOWN_CLASSES classes (the most frequent or probable): say how many more there are. */
export function leftOutNote(listed: number, leftOut: number | undefined, what: string): HTMLElement[] {
  if (!leftOut) return [];
  return [h('p', { class: 'note' }, `${listed} of ${listed + leftOut} ${what} listed; ${leftOut} left out.`)];
}

export function classifyView(e: ClassifyResult): HTMLElement[] {
  const out: HTMLElement[] = [
    h(
      'p',
      {},
      `${e.classifier} predicts ${e.predicted ?? '— (every class has probability 0)'}` +
        (e.words ? ` · ${e.words.used} word positions used, ${e.words.ignored} not in the vocabulary` : ''),
    ),
  ];
  if (e.classes.some((c) => c.posterior !== undefined)) {
    out.push(
      barChart(
        `classify-${atLine(e)}`,
        'P(class | instance)',
        e.classes.map((c) => c.value),
        [{ name: 'P(v | x)', className: 'posterior', values: e.classes.map((c) => c.posterior) }],
        e.predicted ? { [e.predicted]: ['predicted'] } : {},
      ),
    );
  }
  out.push(
    dataTable(
      'class scores',
      [
        { title: 'class', value: (c) => c.value, className: (c) => (c.value === e.predicted ? 'chosen' : undefined) },
        { title: 'P(v) Π P(aᵢ|v)', value: (c) => c.score },
        { title: 'log score', value: (c) => c.logScore },
        { title: 'posterior', value: (c) => c.posterior },
      ],
      e.classes,
    ),
  );
  out.push(...leftOutNote(e.classes.length, e.classesLeftOut, 'classes'));
  if (e.ignored.length)
    out.push(h('p', {}, 'Ignored: ' + e.ignored.map((i) => `${i.attribute} = ${i.value} (${i.reason})`).join(', ')));
  return out;
}

/** `evaluate N on D folds k`: the expected loss, and the loss (and error) of each fold. */
export function networkEvaluationView(e: NetworkEvaluationResult): HTMLElement[] {
  const rows = e.foldLogLoss.map((loss, i) => ({ fold: i + 1, loss, error: e.foldError?.[i] }));
  return [
    h(
      'p',
      {},
      `Expected log-likelihood loss `,
      h('strong', { 'data-value': String(e.logLoss) }, num(e.logLoss, 4)),
      ` nats per record${e.target ? ` · ${e.target} error ${num(e.error!, 4)}` : ''}` +
        ` · ${e.folds} folds, seed ${e.seed}` +
        ` · ${e.how} · ${e.tested} records scored${e.skipped ? `, ${e.skipped} with a missing value not` : ''}`,
    ),
    dataTable(
      'fold losses',
      [
        { title: 'fold', value: (r) => r.fold },
        { title: 'log-likelihood loss', value: (r) => r.loss },
        ...(e.target ? [{ title: `${e.target} error`, value: (r: (typeof rows)[number]) => r.error }] : []),
      ],
      rows,
    ),
  ];
}

export function evaluationView(e: EvaluationResult): HTMLElement[] {
  const names = e.classes.map((c) => c.value);
  return [
    h(
      'p',
      { class: 'accuracy' },
      `Accuracy `,
      h('strong', { 'data-value': String(e.accuracy) }, prob(e.accuracy)),
      ` (${e.correct} of ${e.tested}) · ${e.method} · trained on ${num(e.trained, 1)}`,
    ),
    confusionMatrix(names, e.confusion),
    ...leftOutNote(names.length, e.classesLeftOut, 'classes'),
    dataTable(
      'per-class metrics',
      [
        { title: 'class', value: (c) => c.value },
        { title: 'precision', value: (c) => c.precision },
        { title: 'recall', value: (c) => c.recall },
        { title: 'support', value: (c) => c.support },
      ],
      e.classes,
    ),
    ...(e.foldAccuracies
      ? [
          dataTable(
            'fold accuracies',
            [
              { title: 'fold', value: (r) => r[0] },
              { title: 'accuracy', value: (r) => r[1] },
            ],
            e.foldAccuracies.map((a, i) => [i + 1, a] as [number, number]),
          ),
        ]
      : []),
  ];
}

/** confusion[actual][predicted], shaded by count; with many classes the columns are numbered (names in their titles).
 * */
export function confusionMatrix(names: string[], confusion: number[][]): HTMLElement {
  const max = Math.max(1, ...confusion.flat());
  const numbered = names.length > 6;
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'actual \\ predicted'),
    ...names.map((n, i) => h('th', { scope: 'col', title: n, 'aria-label': n }, numbered ? String(i + 1) : n)),
  );
  const body = confusion.map((row, a) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, numbered ? `${a + 1} · ${names[a]}` : names[a]!),
      ...row.map((n, p) => {
        const td = h(
          'td',
          {
            class: `num heat${a === p ? ' diagonal' : ''}`,
            'data-value': String(n),
            title: `${names[a]} predicted as ${names[p]}: ${n}`,
          },
          String(n),
        );
        td.style.setProperty('--heat', (n / max).toFixed(3));
        return td;
      }),
    ),
  );
  const table = h(
    'table',
    { class: 'confusion', 'aria-label': 'confusion matrix' },
    h('thead', {}, head),
    h('tbody', {}, ...body),
  );
  const tsv = () => tsvText([['actual \\ predicted', ...names], ...confusion.map((row, a) => [names[a]!, ...row])]);
  return h('div', { class: 'table-wrap' }, table, copyButton('Copy confusion matrix', tsv));
}

export function learningCurveView(e: LearningCurveResult): HTMLElement[] {
  return [
    lineChart(
      `learning-curve-${atLine(e)}`,
      `Accuracy of ${e.classifier} against training-set size (seed ${e.seed})`,
      'training examples',
      'accuracy',
      [{ name: 'accuracy', className: 'posterior', points: e.points.map((p) => [p.trainingSize, p.accuracy]) }],
    ),
    dataTable(
      'learning curve',
      [
        { title: 'training examples', value: (p) => p.trainingSize },
        { title: 'accuracy', value: (p) => p.accuracy },
      ],
      e.points,
    ),
  ];
}

/** The learned DAG; against a reference, missing arcs dashed, extra and reversed coloured; tooltips give each wrong
 * arc's score change. */
export function structureView(e: StructureResultEntry): HTMLElement[] {
  const key = (a: [string, string]) => `${a[0]}→${a[1]}`;
  const c = e.comparison;
  const change = (kind: 'missing' | 'extra', i: number) => {
    const x = c?.scoreChange?.[kind][i];
    return x === undefined
      ? ''
      : `; adds ${x >= 0 ? '+' : ''}${num(x, 4)} to its family's ${e.scoreName} score${kind === 'missing' && x < 0 ? ': the data does not support it' : ''}`;
  };
  const extra = new Map((c?.extra ?? []).map((a, i) => [key(a), i]));
  const reversed = new Set((c?.reversed ?? []).map(key));
  const edges: GraphEdge[] = e.arcs.map(([from, to]) => {
    const k = key([from, to]);
    const className = extra.has(k) ? 'extra' : reversed.has(k) ? 'reversed' : c ? 'matched' : undefined;
    const why = className === 'extra' ? change('extra', extra.get(k)!) : '';
    return {
      from,
      to,
      className,
      title: `${from} → ${to}${className && className !== 'matched' ? ` (${className}${why})` : ''}`,
    };
  });
  (c?.missing ?? []).forEach(([from, to], i) =>
    edges.push({
      from,
      to,
      className: 'missing',
      title: `${from} → ${to} (missing: in ${c!.reference} only${change('missing', i)})`,
    }),
  );
  // A CPDAG's undirected edges (pc, the averaged network); bootstrap strength as the stroke width.
  for (const [from, to] of e.edges ?? []) {
    edges.push({ from, to, undirected: true, title: `${from} − ${to} (either direction)` });
  }
  if (e.strength) {
    const strength = new Map(e.strength.map((s) => [`${s.from}→${s.to}`, s]));
    for (const edge of edges) {
      const s = strength.get(key([edge.from, edge.to]));
      if (!s) continue;
      edge.width = 0.75 + 3.25 * s.strength;
      edge.title = `${edge.title ?? ''}; strength ${num(s.strength, 3)}, direction ${num(s.direction, 3)}`;
    }
  }
  // Every variable, arcs or not: `bayes run` gives each its CPT; the CLI's JSON has only the arcs.
  const names = [...new Set([...Object.keys(e.cpts ?? {}), ...edges.flatMap((a) => [a.from, a.to])])];
  return [
    h(
      'p',
      {},
      `${e.method} · ${e.scoreName} score ${num(e.score, 6)} · ${e.arcs.length} arcs` +
        (e.edges?.length ? ` · ${e.edges.length} undirected edges` : '') +
        (e.strength
          ? ` · averaged over ${e.replicates} bootstrap replicates, strength > ${num(e.threshold!, 3)}`
          : '') +
        (c?.shd ? ` · SHD ${c.shd.cpdag} (skeleton ${c.shd.skeleton})` : '') +
        (c
          ? ` · against ${c.reference}: ${c.missing.length} missing, ${c.extra.length} extra, ${c.reversed.length} reversed`
          : ''),
    ),
    graphView(
      names.map((id) => ({ id })),
      edges,
      {
        name: `structure-${atLine(e)}`,
        label: 'Learned structure',
        legend: c
          ? [
              ['matching arc', 'matched'],
              ['extra arc', 'extra'],
              ['reversed arc', 'reversed'],
              ['missing arc (reference only)', 'missing'],
            ]
          : undefined,
      },
    ),
  ];
}

export function leastSquaresView(e: LeastSquaresResult): HTMLElement[] {
  return [
    h(
      'p',
      {},
      `SSE ${num(e.sse, 6)} · σ_ML ${num(e.sigmaMl, 6)}${e.sigmaUnbiased !== undefined ? ` · σ (unbiased) ${num(e.sigmaUnbiased, 6)}` : ''}`,
    ),
    dataTable(
      'coefficients',
      [
        { title: 'coefficient', value: (r) => r[0] },
        { title: 'value', value: (r) => r[1] },
      ],
      e.names.map((n, i) => [n, e.coefficients[i]!] as [string, number]),
    ),
  ];
}

export function logisticView(e: LogisticResult): HTMLElement[] {
  return [
    h(
      'p',
      {},
      `${e.method} · G(h, D) ${num(e.crossEntropy, 6)} · ${e.iterations} iterations · ${e.converged ? 'converged' : 'not converged'}`,
    ),
    ...(e.note ? [h('p', { class: 'warning' }, e.note)] : []),
    dataTable(
      'weights',
      [
        { title: 'weight', value: (r) => r[0] },
        { title: 'value', value: (r) => r[1] },
      ],
      e.names.map((n, i) => [n, e.weights[i]!] as [string, number]),
    ),
  ];
}
