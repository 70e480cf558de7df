/**
 * Result hovers that read like the textbook: a posterior shows Bayes theorem with the run's own
 * numbers (Mitchell §6.2.1), a naive Bayes classification the product of eq. 6.20 with the
 * counts behind each factor (§6.9.1), an expect line its verdict and the result it checked.
 * Kinds without their own explanation fall back to entryMarkdown (every field by shape).
 */
import type {
  ClassifyResult,
  ExpectResult,
  NamedFindings,
  PosteriorResult,
  ResultEntry,
} from '../protocol/runResult.js';
import { barChart, entryMarkdown, escape, formatNumber, markdownTable } from './resultView.js';
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
    case 'mpe':
    case 'sensitivity':
      if (!entry.findings) return entryMarkdown(entry);
      return `${entryMarkdown({ ...entry, findings: undefined })}\n\n${findingsMarkdown(entry.findings)}`;
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
  return `**${entry.kind}** — ${escape(entry.headline)}`;
}

function textBlock(lines: string[]): string {
  return '```text\n' + lines.join('\n') + '\n```';
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
  parts.push(`h_MAP = ${e.map.join(', ') || '—'} · h_ML = ${e.ml.join(', ') || '—'}`);
  if (e.sequence?.length) parts.push(sequenceMarkdown(e));
  return parts.join('\n\n');
}

/** Mitchell fig. 6.1 as a table: the posterior of each hypothesis after each datum. */
function sequenceMarkdown(e: PosteriorResult): string {
  const names = e.rows.map((r) => r.hypothesis);
  const rows = [
    ['(prior)', ...e.rows.map((r) => formatNumber(r.prior))],
    ...e.sequence!.map((s, i) => [`${i + 1}. ${s.datum}`, ...s.posterior.map(formatNumber)]),
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
      `left out of the product: ${e.ignored.map((i) => `${i.attribute} = ${i.value} (${i.reason})`).join(', ')}`,
    );
  const posteriors = Object.fromEntries(
    e.classes.filter((c) => c.posterior !== undefined).map((c) => [c.value, c.posterior!]),
  );
  if (Object.keys(posteriors).length) parts.push(barChart(posteriors));
  return parts.join('\n\n');
}

/** The verdict, then the result it was checked against, explained in its own right. */
function expectMarkdown(e: ExpectResult): string {
  const actual = typeof e.actual === 'number' ? formatNumber(e.actual) : e.actual;
  const verdict = `${e.passed ? '✓' : '✗'} expected ${escape(e.expected)}, actual ${escape(actual)}`;
  return [heading(e), verdict, ...(e.result ? [explainEntry(e.result)] : [])].join('\n\n');
}
