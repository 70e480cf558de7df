/**
 * Hovers of decision queries: each decision's rule as a table of what it knows, with the
 * expected utility of every alternative in that context (the chosen one starred) and the
 * probability of the context; `eu` lists the alternatives best first.
 */
import type { ExpectedUtilityResult, PolicyResult } from '../run/runResult.js';
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
    const knows = rule.context.length ? ` knowing ${rule.context.join(', ')}` : '';
    parts.push(`**${rule.decision}**${knows}:\n\n${markdownTable(header, body)}${more}`);
  }
  return parts.join('\n\n');
}

export function expectedUtilityMarkdown(e: ExpectedUtilityResult): string {
  const rows = Object.entries(e.expectedUtility).sort((a, b) => b[1] - a[1])
    .map(([a, eu]) => [`${a}${e.best.includes(a) ? ' ★' : ''}`, formatNumber(eu)]);
  const given = Object.entries(e.evidence).map(([v, s]) => `${v} = ${s}`).join(', ');
  return [`**eu** — ${escape(e.headline)}`, `EU(${e.decision} = a${given ? ` | ${escape(given)}` : ''}), later decisions optimal:`,
    markdownTable(['alternative', 'expected utility'], rows)].join('\n\n');
}
