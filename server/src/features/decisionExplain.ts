/**
 * Hovers of decision queries: each decision's rule as a table of what it knows, with the
 * expected utility of every alternative in that context (the chosen one starred) and the
 * probability of the context; `eu` lists the alternatives best first.
 */
import type * as A from '../language/ast.js';
import type { ExpectedUtilityResult, NetworkResult, PolicyResult, RunResult } from '../protocol/runResult.js';
import { escape, formatNumber, markdownTable } from './resultView.js';

/** Context rows shown per decision; larger rules are in Show Results. */
const MAX_ROWS = 12;

export function policyMarkdown(e: PolicyResult): string {
  const parts = [`**policy** — ${escape(e.headline)}`, `maximum expected utility: ${formatNumber(e.meu)}`];
  for (const rule of e.rules) {
    // Contexts that cannot happen say nothing about the choice.
    const rows = rule.rows.filter((r) => r.probability === undefined || r.probability > 0);
    const header = [...rule.context, ...rule.alternatives.map((a) => `EU(${a})`), 'P', 'choice'];
    const body = rows.slice(0, MAX_ROWS).map((r) => [
      ...rule.context.map((c) => r.given[c] ?? ''),
      ...rule.alternatives.map((a) => {
        const eu = r.expectedUtility?.[a];
        return eu === undefined ? '' : `${formatNumber(eu)}${a === r.choice ? ' ★' : ''}`;
      }),
      r.probability === undefined ? '' : formatNumber(r.probability),
      r.choice,
    ]);
    const more = rows.length > MAX_ROWS ? `\n\n… and ${rows.length - MAX_ROWS} more contexts` : '';
    const knows = rule.context.length ? ` knowing ${escape(rule.context.join(', '))}` : '';
    parts.push(`**${escape(rule.decision)}**${knows}:\n\n${markdownTable(header, body)}${more}`);
  }
  return parts.join('\n\n');
}

export function expectedUtilityMarkdown(e: ExpectedUtilityResult): string {
  const rows = Object.entries(e.expectedUtility)
    .sort((a, b) => b[1] - a[1])
    .map(([a, eu]) => [`${a}${e.best.includes(a) ? ' ★' : ''}`, formatNumber(eu)]);
  const given = Object.entries(e.evidence)
    .map(([v, s]) => `${v} = ${s}`)
    .join(', ');
  return [
    `**eu** — ${escape(e.headline)}`,
    `EU(${escape(e.decision)} = a${given ? ` | ${escape(given)}` : ''}), later decisions optimal:`,
    markdownTable(['alternative', 'expected utility'], rows),
  ].join('\n\n');
}

/**
 * A `noisy_or`/`noisy_max` table: its parameters as written, then the expanded table the last
 * run computed with (from the network it drew), so both forms are in view.
 */
export function canonicalMarkdown(
  t: A.TableDecl,
  model: A.CanonicalModel,
  scope: string,
  run: RunResult | undefined,
): string {
  const effect = t.head.targets[0]?.variable.text ?? '?';
  const parameters = model.entries
    .map((e) => {
      if (e.value) return [e.cause.text, '', e.value.text];
      if (e.list) return [e.cause.text, '', `[${e.list.map((n) => n.text).join(', ')}]`];
      return e.rows.map((r) => [
        e.cause.text,
        r.keys.map((k) => k.text).join(', '),
        `[${r.entries.map((x) => x.value.text).join(', ')}]`,
      ]);
    })
    .flatMap((x) => (Array.isArray(x[0]) ? (x as string[][]) : [x as string[]]));
  const what =
    model.model === 'noisy_or'
      ? `P(${escape(effect)} | only this cause present), the leak included`
      : `P(${escape(effect)} | only this cause in this state), the leak included`;
  const parts = [`**${model.model}** — ${what}:`, markdownTable(['cause', 'state', 'P'], parameters)];
  const net = run?.results.find((r): r is NetworkResult => r.kind === 'network' && r.network === (scope || 'default'));
  const v = net?.variables.find((x) => x.name === effect);
  if (v) {
    const rows = v.cpt.rows
      .slice(0, MAX_ROWS)
      .map((r) => [
        ...v.cpt.parents.map((p) => r.given[p] ?? ''),
        ...v.states.map((st) => formatNumber(r.distribution[st] ?? NaN)),
      ]);
    const more = v.cpt.rows.length > MAX_ROWS ? `\n\n… and ${v.cpt.rows.length - MAX_ROWS} more rows` : '';
    parts.push(
      `Expanded table:\n\n${markdownTable([...v.cpt.parents, ...v.states.map((st) => `P(${st})`)], rows)}${more}`,
    );
  }
  return parts.join('\n\n');
}
