/**
 * Result hovers that read like the textbook: a posterior shows Bayes theorem with the run's own
 * numbers (Mitchell §6.2.1), a naive Bayes classification the product of eq. 6.20 with the
 * counts behind each factor (§6.9.1), an expect line its verdict and the result it checked.
 * Kinds without their own explanation fall back to entryMarkdown (every field by shape).
 */
import type {
  ClassifyResult,
  ExpectResult,
  InferenceInfo,
  MarginalsResult,
  MpeResultEntry,
  NamedEvidence,
  NamedFindings,
  PosteriorResult,
  ProbabilityResult,
  ResultEntry,
  SensitivityResult,
} from '../protocol/runResult.js';
import {
  barChart,
  codeBlock,
  currentPrecision,
  entryMarkdown,
  escape,
  formatNumber,
  markdownTable,
  tidyNumbers,
} from './resultView.js';
import { expectedUtilityMarkdown, policyMarkdown } from './decisionExplain.js';

/** Hypotheses shown one line each; larger spaces are summed up by P(D). */
const MAX_LINES = 8;

export function explainEntry(entry: ResultEntry): string {
  switch (entry.kind) {
    case 'posterior':
      return posteriorMarkdown(entry);
    case 'classify':
      return classifyMarkdown(entry) ?? entryMarkdown(entry);
    case 'expect':
      return expectMarkdown(entry);
    case 'policy':
      return policyMarkdown(entry);
    case 'expectedUtility':
      return expectedUtilityMarkdown(entry);
    case 'probability':
      return withFindings(probabilityMarkdown(entry), entry.findings);
    case 'marginals':
      return withFindings(marginalsMarkdown(entry), entry.findings);
    case 'mpe':
      return withFindings(mpeMarkdown(entry), entry.findings);
    case 'sensitivity':
      return withFindings(sensitivityMarkdown(entry), entry.findings);
    default:
      return entryMarkdown(entry);
  }
}

/**
 * Soft and virtual evidence with their numbers: Jeffrey's rule for soft findings (and the
 * likelihood that meets them), Pearl's update for virtual ones.
 */
export function findingsMarkdown(findings: NamedFindings): string {
  const vector = (r: Record<string, number>) =>
    `{ ${Object.entries(r)
      .map(([s, x]) => `${s}: ${formatNumber(x)}`)
      .join(', ')} }`;
  const lines = Object.entries(findings).flatMap(([v, f]) =>
    f.kind === 'soft'
      ? [
          `${v} ~ ${vector(f.values)}: soft evidence (Jeffrey's rule), P'(${v}) is exactly this;`,
          `  P'(y) = Σ_x q(x) P(y | ${v} = x, e), i.e. the likelihood λ = q(x) / P(x | e) ∝ ${vector(f.likelihood)}`,
        ]
      : [
          `${v} ~ likelihood ${vector(f.values)}: virtual evidence (Pearl),`,
          `  P'(y) ∝ Σ_x P(y, ${v} = x | e) λ(x), with λ ∝ ${vector(f.likelihood)} (only ratios matter)`,
        ],
  );
  return textBlock(lines);
}

function heading(entry: ResultEntry): string {
  return `**${entry.kind}** — ${escape(tidyNumbers(entry.headline))}`;
}

function withFindings(markdown: string, findings: NamedFindings | undefined): string {
  return findings ? `${markdown}\n\n${findingsMarkdown(findings)}` : markdown;
}

/** Rows of a joint table shown in a hover (the most probable first); the rest are summed. */
const MAX_ROWS = 12;

function givenText(evidence: NamedEvidence): string {
  const pairs = Object.entries(evidence).map(([v, s]) => `${v} = ${s}`);
  return pairs.length ? ` | ${pairs.join(', ')}` : '';
}

const SAMPLER_NAMES = {
  lw: 'likelihood weighting',
  gibbs: 'Gibbs sampling',
  rejection: 'rejection sampling',
  particle: 'particle filter',
} as const;

/** How the answer was computed; a sampler's answer says its samples, seed and that it carries an error. */
function methodLine(e: InferenceInfo): string {
  if (e.method === 'exact') return 'exact inference (junction tree / variable elimination)';
  const name = SAMPLER_NAMES[e.method];
  const note = e.note ? ` — ${escape(tidyNumbers(e.note))}` : '';
  return `${name}, ${e.samples ?? '?'} samples, seed ${e.seed ?? '?'}: each probability ± its standard error${note}`;
}

/** P(X … | e) row by row, with ± standard error when sampled. */
export function probabilityMarkdown(e: ProbabilityResult): string {
  const given = givenText(e.evidence);
  const sorted = e.table.length > MAX_ROWS ? [...e.table].sort((a, b) => b.p - a.p) : e.table;
  const shown = sorted.slice(0, MAX_ROWS);
  const lines = shown.map((r) => {
    const assignment = e.variables.map((v, i) => `${v} = ${r.states[i]}`).join(', ');
    const se = r.stderr !== undefined ? ` ± ${formatNumber(r.stderr)}` : '';
    return `P(${assignment}${given}) = ${formatNumber(r.p)}${se}`;
  });
  if (sorted.length > shown.length) {
    const rest = sorted.slice(MAX_ROWS).reduce((s, r) => s + r.p, 0);
    lines.push(`… ${sorted.length - shown.length} other assignments: ${formatNumber(rest)} together`);
  }
  const parts = [heading(e), textBlock(lines)];
  if (e.value !== undefined) parts.push(`value: **${formatNumber(e.value)}**`);
  parts.push(methodLine(e));
  return parts.join('\n\n');
}

/** Every marginal, with ± standard error when sampled. */
function marginalsMarkdown(e: MarginalsResult): string {
  const rows = Object.entries(e.marginals).map(([v, dist]) => [
    v,
    Object.entries(dist)
      .map(([s, p]) => {
        const se = e.stderr?.[v]?.[s];
        return `${s} ${formatNumber(p)}${se !== undefined ? ` ± ${formatNumber(se)}` : ''}`;
      })
      .join(', '),
  ]);
  return [heading(e), markdownTable(['variable', `P(state${givenText(e.evidence)})`], rows), methodLine(e)].join(
    '\n\n',
  );
}

/** The whole most probable explanation: every variable's state, and its probability. */
function mpeMarkdown(e: MpeResultEntry): string {
  const rows = [
    ...Object.entries(e.assignment)
      .filter(([v]) => !Object.hasOwn(e.evidence, v))
      .map(([v, s]) => [v, s, '']),
    ...Object.entries(e.evidence).map(([v, s]) => [v, s, 'observed']),
  ];
  return [
    heading(e),
    `P(assignment, evidence) = **${formatNumber(e.probability)}** (log ${formatNumber(e.logProbability)})`,
    markdownTable(['variable', 'state', ''], rows),
  ].join('\n\n');
}

/** The target's value and every parameter's derivative (largest first), with its interval. */
function sensitivityMarkdown(e: SensitivityResult): string {
  const target = `P(${e.target.variable} = ${e.target.state}${givenText(e.evidence)})`;
  const rows = e.parameters.map((p) => {
    const parents = Object.entries(p.parents)
      .map(([v, s]) => `${v} = ${s}`)
      .join(', ');
    const interval = p.interval ? `[${formatNumber(p.interval[0])}, ${formatNumber(p.interval[1])}]` : '';
    return [
      `P(${p.variable} = ${p.state}${parents ? ` | ${parents}` : ''})`,
      formatNumber(p.value),
      formatNumber(p.derivative),
      interval,
    ];
  });
  return [
    heading(e),
    `${escape(target)} = **${formatNumber(e.value)}**`,
    markdownTable(['parameter', 'value', `∂ ${target} / ∂ parameter`, 'same decision within'], rows),
  ].join('\n\n');
}

function textBlock(lines: string[]): string {
  return codeBlock(lines);
}

/** `Test = pos` for one datum; `D` (spelled out below the block) for several. */
export function dataName(e: PosteriorResult): string {
  return e.data && !e.data.includes(',') ? e.data : 'D';
}

/** P(D|h) P(h) = likelihood × prior = product for each h, then P(h|D) = product / P(D). */
export function posteriorMarkdown(e: PosteriorResult): string {
  const d = dataName(e);
  const rows = e.rows.slice(0, MAX_LINES);
  const lines = rows.map(
    (r) =>
      `P(${d} | ${r.hypothesis}) P(${r.hypothesis}) = ${formatNumber(r.likelihood)} × ${formatNumber(r.prior)} = ${formatNumber(r.product)}`,
  );
  if (e.rows.length > rows.length) lines.push(`… and ${e.rows.length - rows.length} more hypotheses`);
  // A few products are summed as written (Mitchell's .00784 / (.00784 + .02976)); more are P(D).
  const spelled = e.rows.length <= 4;
  const sum = spelled ? `(${e.rows.map((r) => formatNumber(r.product)).join(' + ')})` : 'P(D)';
  if (!spelled && e.evidencePossible) lines.push(`P(D) = Σ P(D | h) P(h) = ${formatNumber(e.evidence)}`);
  if (e.evidencePossible) {
    for (const r of rows)
      lines.push(`P(${r.hypothesis} | ${d}) = ${formatNumber(r.product)} / ${sum} = ${formatNumber(r.posterior ?? 0)}`);
  } else lines.push(`P(${d}) = 0: no hypothesis can produce the data, there is no posterior`);
  const parts = [
    heading(e),
    `Bayes theorem (Mitchell eq. 6.2)${d === 'D' && e.data ? `, D = ${escape(e.data)}` : ''}:`,
    textBlock(lines),
  ];
  parts.push(`h_MAP = ${escape(e.map.join(', ')) || '—'} · h_ML = ${escape(e.ml.join(', ')) || '—'}`);
  if (e.sequence?.length) parts.push(sequenceMarkdown(e));
  return parts.join('\n\n');
}

/** Mitchell fig. 6.1 as a table: the posterior of each hypothesis after each datum. */
function sequenceMarkdown(e: PosteriorResult): string {
  const names = e.rows.map((r) => r.hypothesis);
  const rows = [
    ['(prior)', ...e.rows.map((r) => formatNumber(r.prior))],
    ...e.sequence!.map((s, i) => [`${i + 1}. ${s.datum}`, ...s.posterior.map((x) => formatNumber(x))]),
  ];
  return `Datum by datum (fig. 6.1):\n\n${markdownTable(['after', ...names.map((n) => `P(${n}|…)`)], rows)}`;
}

/** `9/14` when the factor is a plain ratio of counts, else its value. */
function factorText(f: { p: number; count?: number; total?: number }): string {
  return f.count !== undefined && f.total !== undefined ? `${f.count}/${f.total}` : formatNumber(f.p);
}

/** v_NB with the product of eq. 6.20 per class; undefined for text classifiers (no factors). */
export function classifyMarkdown(e: ClassifyResult): string | undefined {
  if (!e.classes.every((c) => c.factors && c.score !== undefined)) return undefined;
  const lines = e.classes.map(
    (c) =>
      `${c.factors!.map((f) => f.term).join(' ')} = ${c.factors!.map(factorText).join(' · ')} = ${formatNumber(c.score!)}`,
  );
  const best = e.classes.find((c) => c.value === e.predicted);
  if (best)
    lines.push(
      `P(${best.value} | x) = ${formatNumber(best.score!)} / (${e.classes.map((c) => formatNumber(c.score!)).join(' + ')}) = ${formatNumber(best.posterior ?? 0)}`,
    );
  const parts = [heading(e), 'v_NB = argmax P(v) Π P(a_i|v) (Mitchell eq. 6.20):', textBlock(lines)];
  if (e.ignored.length)
    parts.push(
      `left out of the product: ${escape(e.ignored.map((i) => `${i.attribute} = ${i.value} (${i.reason})`).join(', '))}`,
    );
  const posteriors = Object.fromEntries(
    e.classes.filter((c) => c.posterior !== undefined).map((c) => [c.value, c.posterior!]),
  );
  if (Object.keys(posteriors).length) parts.push(barChart(posteriors));
  return parts.join('\n\n');
}

/** The verdict, then the result it was checked against, explained in its own right. */
function expectMarkdown(e: ExpectResult): string {
  const actual = typeof e.actual === 'number' ? formatNumber(e.actual, expectDigits(e.expected)) : e.actual;
  const verdict = `${e.passed ? '✓' : '✗'} expected ${escape(e.expected)}, actual ${escape(actual)}`;
  // The headline holds the number the user wrote: it is not rounded.
  return [`**expect** — ${escape(e.headline)}`, verdict, ...(e.result ? [explainEntry(e.result)] : [])].join('\n\n');
}

/**
 * Significant digits to show an expect's actual value with: the precision setting, or as many as
 * the expected number was written with (`≈ 0.814885858333098 ± 1e-9` is compared to 15 digits).
 */
export function expectDigits(expected: string): number {
  const written = /\d+\.\d+|\d+/.exec(expected.replace(/^[^\d-]*/, ''))?.[0] ?? '';
  const significant = written.replace('.', '').replace(/^0+/, '').length;
  return Math.min(15, Math.max(currentPrecision(), significant));
}
