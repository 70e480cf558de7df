/**
 * Hover. On a name: what it is, its `///` doc comment, and what the last run says of it — for a
 * variable its CPT as a table and its distribution as bars, for a hypothesis its prior and every
 * number the run reports for it (posterior, likelihood, bits) with its rank and MAP/ML/MDL marks.
 * On a query, learn or expect line: the full result.
 */
import type { Hover, Position } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import type {
  ContinuousResult,
  MdlResult,
  NetworkResult,
  PosteriorResult,
  ResultEntry,
  RunResult,
} from '../protocol/runResult.js';
import type { NameIndex, NameSymbol } from '../language/index.js';
import { nameIndex } from '../language/index.js';
import {
  barChart,
  codeSpan,
  entriesOverlapping,
  escape,
  formatNumber,
  markdownTable,
  numberRecords,
} from './resultView.js';
import { dataName, explainEntry } from './resultExplain.js';
import { canonicalMarkdown } from './decisionExplain.js';

export function hover(file: A.BayesFile, position: Position, run: RunResult | undefined): Hover | null {
  const index = nameIndex(file);
  const found = index.at(position);
  const sections = found ? symbolSections(file, index, found.symbol, run) : [];
  if (!found || found.symbol.kind !== 'variable') {
    for (const entry of entriesOverlapping(run, position.line)) sections.push(explainEntry(entry));
  }
  if (sections.length === 0) return null;
  return {
    contents: { kind: 'markdown', value: sections.join('\n\n---\n\n') },
    ...(found ? { range: found.name.range } : {}),
  };
}

function symbolSections(file: A.BayesFile, index: NameIndex, s: NameSymbol, run: RunResult | undefined): string[] {
  const sections = [signature(s)];
  const doc = s.kind === 'hypothesis' ? undefined : s.statement?.doc;
  if (doc) sections.push(doc);
  if (s.kind === 'hypotheses') sections.push(priorTable(s), ...likelihoodTables(file, index, s));
  if (s.kind === 'variable') {
    const table = scopeStatements(file, s.scope).find(
      (x): x is A.TableDecl => x.kind === 'table' && x.head.targets[0]?.variable.text === s.name,
    );
    const body = table?.canonical
      ? canonicalMarkdown(table, table.canonical, s.scope, run)
      : table && cptMarkdown(table, s);
    if (table) sections.push((table.doc ? `${table.doc}\n\n` : '') + body);
  }
  if (s.kind === 'variable' || s.kind === 'hypotheses') sections.push(...distributions(index, s, run));
  if (s.kind === 'hypothesis') sections.push(...hypothesisFigures(s, run));
  return sections;
}

function signature(s: NameSymbol): string {
  // Names and states may be quoted or come from imported files: plain text, escaped.
  const states = s.states?.map((x) => escape(x.name)).join(', ');
  const name = escape(s.name);
  switch (s.kind) {
    case 'variable':
      return `variable **${name}** ${isReal(s) ? ': real' : states !== undefined ? `{ ${states} }` : ''}${s.scope ? ` in network ${escape(s.scope)}` : ''}`;
    case 'hypotheses':
      return `hypotheses **${name}** { ${states} }`;
    case 'hypothesis': {
      const prior = priorOf(s);
      return `hypothesis **${name}** of ${escape(s.owner?.name ?? '')}${prior ? ` · prior P(${name}) = ${escape(prior)}` : ''}`;
    }
    case 'state':
      return `value **${name}** of ${escape(s.owner?.name ?? '')}`;
    case 'column':
      return `column **${name}** of data ${escape(s.scope.replace(/^data:/, ''))}`;
    default:
      return `${s.kind} **${name}**`;
  }
}

function priorOf(s: NameSymbol): string | undefined {
  const statement = s.statement;
  if (statement?.kind !== 'hypotheses') return undefined;
  const entry = statement.entries.find((e) => e.name.text === s.name);
  if (entry?.prior) return entry.prior.text;
  return statement.prior?.text === 'uniform' && statement.entries.length > 0
    ? `1/${statement.entries.length}`
    : undefined;
}

function scopeStatements(file: A.BayesFile, scope: string): A.Statement[] {
  if (!scope) return file.statements;
  return (
    file.statements.find((x): x is A.NetworkDecl => x.kind === 'network' && x.name.text === scope)?.statements ?? []
  );
}

/** P(h) for each hypothesis of a space. */
function priorTable(s: NameSymbol): string {
  return markdownTable(
    ['h', 'P(h)'],
    (s.states ?? []).map((h) => [h.name, priorOf(h) ?? '']),
  );
}

/** The likelihoods P(D | h): every table the hypothesis space conditions. */
function likelihoodTables(file: A.BayesFile, index: NameIndex, s: NameSymbol): string[] {
  return scopeStatements(file, s.scope)
    .filter((x): x is A.TableDecl => x.kind === 'table' && x.head.conditions.some((c) => c.variable.text === s.name))
    .flatMap((t) => {
      const target = index.variable(s.scope, t.head.targets[0]?.variable.text ?? '');
      return target ? [`likelihood ${headText(t)}\n\n${cptMarkdown(t, target)}`] : [];
    });
}

function headText(t: A.TableDecl): string {
  const names = (a: A.Assignment[]) => a.map((x) => x.variable.text).join(', ');
  return `P(${names(t.head.targets)}${t.head.conditions.length ? ` | ${names(t.head.conditions)}` : ''})`;
}

function isReal(s: NameSymbol): boolean {
  return s.statement?.kind === 'variable' && s.statement.domain.type === 'real';
}

/** A continuous variable's table: its regression, or one per configuration of its discrete parents. */
function regressionMarkdown(t: A.TableDecl): string {
  const text = (call: A.Call) =>
    `Normal(${call.args.map((a) => (a.name ? `${a.name.text}: ` : '') + (a.value.kind === 'number' ? a.value.text : '…')).join(', ')})`;
  if (t.parameterPrior?.kind === 'call') return `${escape(headText(t))} ~ ${escape(text(t.parameterPrior))}`;
  const discrete = t.rows.find((r) => r.normal)?.keys.length ?? 0;
  const parents = t.head.conditions.map((c) => c.variable.text).slice(0, discrete);
  const rows = t.rows.filter((r) => r.normal).map((r) => [...r.keys.map((k) => k.text), text(r.normal!)]);
  return `${escape(headText(t))}\n\n${markdownTable([...parents, 'regression'], rows)}`;
}

/** The CPT as a Markdown table: one row per parent assignment, one column per value. */
export function cptMarkdown(t: A.TableDecl, s: NameSymbol): string {
  if (isReal(s)) return regressionMarkdown(t);
  const states = s.states?.map((x) => x.name) ?? [];
  const parents = t.head.conditions.map((c) => c.variable.text);
  const bool = states.length === 2 && states[0] === 'true' && states[1] === 'false';
  const values = (entries: A.RowEntry[], form: A.Row['form']): string[] => {
    if (form === 'map') return states.map((st) => entries.find((e) => e.state?.text === st)?.value.text ?? '');
    if (form === 'single' && bool && entries[0])
      return [entries[0].value.text, formatNumber(1 - entries[0].value.value)];
    return states.map((_, i) => entries[i]?.value.text ?? '');
  };
  let rows: string[][];
  if (t.value) rows = [values([{ kind: 'rowEntry', value: t.value, range: t.value.range }], 'single')];
  else rows = t.rows.map((r) => [...r.keys.map((k) => k.text), ...values(r.entries, r.form)]);
  if (rows.length === 0)
    return `P(${s.name}${parents.length ? ' | ' + parents.join(', ') : ''}) ${t.parameterPrior ? 'is learned from data' : ''}`;
  return markdownTable([...parents, ...states.map((st) => `P(${st})`)], rows);
}

/**
 * The variable's distributions in the last run: a record over its states that is filed under
 * its name (`marginals.Storm`), or found in the result of a statement that names it.
 */
function distributions(index: NameIndex, s: NameSymbol, run: RunResult | undefined): string[] {
  if (!run) return [];
  const states = new Set(s.states?.map((x) => x.name) ?? []);
  const sections: string[] = [];
  const uses = index.uses(s).filter((u) => !u.declaration);
  for (const entry of run.results) {
    if (entry.kind === 'network') {
      sections.unshift(...networkMarginal(entry, s));
      continue;
    }
    const inner = entry.kind === 'expect' ? entry.result : entry;
    if (inner?.kind === 'continuous') {
      if (inner.variable === s.name && inner.network === (s.scope || 'default')) {
        // An expect re-asks a query: the same density once (the first statement that gave it).
        const shown = density(entry, inner);
        const key = shown.slice(shown.indexOf(' — '));
        if (!sections.some((x) => x.slice(x.indexOf(' — ')) === key)) sections.push(shown);
      }
      continue;
    }
    const named = uses.some(
      (u) => u.name.range.start.line >= entry.range.start.line && u.name.range.end.line <= entry.range.end.line,
    );
    for (const { path, field, record } of numberRecords(entry)) {
      const keys = Object.keys(record);
      if (keys.length === 0 || !keys.every((k) => states.has(k))) continue;
      if (path[path.length - 1] === s.name || named)
        sections.push(`${codeSpan(entry.source.trim())} — ${escape(field)}\n\n${barChart(record)}`);
    }
  }
  return sections;
}

/** A continuous variable's posterior density from a query on it: mean, variance, and a CLG mixture's components. */
function density(entry: ResultEntry, e: ContinuousResult): string {
  const given = Object.entries(e.evidence)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
  const how = e.method === 'exact' ? 'exact' : `${e.method}, ${e.samples ?? '?'} samples`;
  const head = `${codeSpan(entry.source.trim())} — density of ${escape(e.variable)} in ${escape(e.network)}${given ? ` given ${escape(given)}` : ''}, ${how}:`;
  const show = (x: number) => String(Number(x.toPrecision(6)));
  const body = `mean ${show(e.mean)}, variance ${show(e.variance)}`;
  const components = e.components ?? [];
  if (components.length <= 1)
    return `${head}

${body} — N(${show(e.mean)}, ${show(e.variance)})`;
  const mixture = components.map((c) => `${show(c.weight)} · N(${show(c.mean)}, ${show(c.variance)})`).join(' + ');
  return `${head}

${body}; the mixture ${mixture}`;
}

/** The variable's marginal in the network the run drew (given the file's `observe` evidence, if any). */
function networkMarginal(e: NetworkResult, s: NameSymbol): string[] {
  if (e.network !== (s.scope || 'default')) return [];
  const v = e.variables.find((x) => x.name === s.name);
  if (!v) return [];
  const given = v.evidence !== undefined ? ` (observed ${escape(v.evidence)})` : '';
  const how = e.method === 'exact' ? 'exact' : `${e.method}, ${e.samples ?? '?'} samples`;
  // A continuous variable has no states: its posterior density's mean and variance (the panel draws it).
  if (v.continuous) {
    const p = v.continuous.posterior;
    const mixture = p.components.length > 1 ? `, a mixture of ${p.components.length} normals` : '';
    return [
      `${escape(s.name)} in network ${escape(e.network)}${given}, ${how}: mean ${p.mean}, variance ${p.variance}${mixture}`,
    ];
  }
  return [
    `P(${escape(s.name)}) in network ${escape(e.network)}${given}, ${how}:\n\n${barChart(Object.fromEntries(v.states.map((st, i) => [st, v.marginal[i]!])))}`,
  ];
}

/** Top-level fields naming this hypothesis as a choice: `map: ['healthy']`, `best: [...]`, `bestMdl: 'd1a'`. */
function choiceFields(entry: object, name: string): string[] {
  return Object.entries(entry)
    .filter(
      ([field, v]) =>
        !['kind', 'source', 'headline'].includes(field) && (v === name || (Array.isArray(v) && v.includes(name))),
    )
    .map(([field]) => field);
}

/** 1-based rank of `name` among the values: largest first, or smallest first for description lengths. */
function rank(values: Record<string, number>, name: string, smallestFirst = false): string {
  const sorted = Object.entries(values).sort((a, b) => (smallestFirst ? a[1] - b[1] : b[1] - a[1]));
  return `rank ${sorted.findIndex(([k]) => k === name) + 1} of ${sorted.length}`;
}

/**
 * What each result says of this hypothesis, one line per statement: Bayes theorem's three
 * numbers and the posterior's rank, MDL's bits, or every number found by shape; ★ for h_MAP,
 * h_ML, h_MDL. Expect lines re-ask queries already listed, and identical lines (`query map`
 * after `query posterior` on the same D) are shown once.
 */
function hypothesisFigures(s: NameSymbol, run: RunResult | undefined): string[] {
  if (!run) return [];
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const entry of run.results) {
    if (entry.kind === 'expect') continue;
    const figures =
      entry.kind === 'posterior'
        ? posteriorFigures(entry, s.name)
        : entry.kind === 'mdl'
          ? mdlFigures(entry, s.name)
          : shapeFigures(entry, s.name);
    if (!figures || seen.has(figures)) continue;
    seen.add(figures);
    lines.push(`- ${codeSpan(entry.source.trim())} (line ${entry.range.start.line + 1}): ${figures}`);
  }
  return lines.length > 0 ? [lines.join('\n')] : [];
}

function posteriorFigures(e: PosteriorResult, name: string): string | undefined {
  const row = e.rows.find((r) => r.hypothesis === name);
  if (!row) return undefined;
  const d = escape(dataName(e));
  const n = escape(name);
  const figures = [`P(${n}) = ${formatNumber(row.prior)}`, `P(${d} | ${n}) = ${formatNumber(row.likelihood)}`];
  if (row.posterior !== undefined) {
    const posteriors = Object.fromEntries(e.rows.map((r) => [r.hypothesis, r.posterior ?? 0]));
    figures.push(`P(${n} | ${d}) = **${formatNumber(row.posterior)}**, ${rank(posteriors, name)}`);
  }
  if (e.map.includes(name)) figures.push('★ h_MAP');
  if (e.ml.includes(name)) figures.push('★ h_ML');
  return figures.join(' · ');
}

function mdlFigures(e: MdlResult, name: string): string | undefined {
  const row = e.rows.find((r) => r.hypothesis === name);
  if (!row) return undefined;
  const n = escape(name);
  const totals = Object.fromEntries(e.rows.map((r) => [r.hypothesis, r.totalBits]));
  const bits = `L(${n}) + L(D | ${n}) = ${formatNumber(row.hypothesisBits)} + ${formatNumber(row.dataBits)} = **${formatNumber(row.totalBits)}** bits, ${rank(totals, name, true)}`;
  return e.best.includes(name) ? `${bits} · ★ h_MDL` : bits;
}

/** Any other kind: every number record that names the hypothesis, and the choice fields naming it. */
function shapeFigures(entry: ResultEntry, name: string): string | undefined {
  const figures: string[] = [];
  for (const { field, record } of numberRecords(entry)) {
    // Description lengths (`…Bits`) rank smallest first; probabilities and scores largest first.
    if (Object.hasOwn(record, name))
      figures.push(`${escape(field)} **${formatNumber(record[name])}**, ${rank(record, name, /bits$/i.test(field))}`);
  }
  for (const field of choiceFields(entry, name))
    figures.push(`★ ${field === 'best' ? `best by ${entry.kind}` : escape(field)}`);
  return figures.length > 0 ? figures.join(' · ') : undefined;
}
