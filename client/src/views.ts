/**
 * What Show Results and Show Network Graph display, as Markdown: pure functions of the server's
 * answers (no `vscode` here), so they are tested without an editor. The webview replaces these
 * views later; until then they are the real results, read-only.
 */
import type { RunResult, ResultEntry } from '../../server/src/run/runResult.js';

export interface LastResult { state: 'done' | 'failed'; cached: boolean; current: boolean; result: RunResult }
export interface NetworkSummary { name: string; source: 'file' | 'import'; variables: { name: string; states: string[]; parents: string[] }[] }

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function resultsMarkdown(file: string, last: LastResult | null): string {
  const title = `# Results of ${file}\n\n`;
  if (!last) return `${title}The model has not been run yet: save it, or run **Bayes: Run Model**.\n`;
  const r = last.result;
  const lines = [title.trimEnd(), ''];
  const time = r.elapsedMs !== undefined ? ` in ${r.elapsedMs.toFixed(0)} ms` : '';
  lines.push(`Run ${last.state === 'done' ? 'finished' : 'failed'}${time}${last.cached ? ' (cached)' : ''}${last.current ? '' : ' — the file has changed since'}.`, '');
  if (r.results.length > 0) {
    lines.push('| line | statement | result |', '| ---: | --- | --- |');
    for (const e of r.results) lines.push(`| ${e.range.start.line + 1} | \`${cell(e.source.trim())}\` | ${mark(e)}${cell(e.headline)} |`);
    lines.push('');
  } else {
    lines.push('No query, learn or expect statement produced a result.', '');
  }
  if (r.diagnostics.length > 0) {
    lines.push('## Problems', '');
    for (const d of r.diagnostics) lines.push(`- line ${d.range.start.line + 1}, ${d.severity}: ${d.message}`);
    lines.push('');
  }
  return lines.join('\n');
}

function mark(e: ResultEntry): string {
  if (e.kind !== 'expect') return '';
  return e.passed ? '✓ ' : `✗ (actual ${String(e.actual)}) `;
}

/** Each network: its arcs as a Mermaid graph (rendered by Markdown preview extensions) and a table. */
export function graphMarkdown(file: string, networks: NetworkSummary[], only?: string): string {
  const shown = only ? networks.filter((n) => n.name === only) : networks;
  if (shown.length === 0) return `# Networks of ${file}\n\nThis file declares no network${only ? ` named ${only}` : ''}.\n`;
  const out = [`# Networks of ${file}`, ''];
  for (const n of shown) {
    out.push(`## ${n.name}${n.source === 'import' ? ' (imported)' : ''}`, '', '```mermaid', 'graph TD');
    for (const v of n.variables) {
      if (v.parents.length === 0) out.push(`  ${id(v.name)}["${v.name}"]`);
      for (const p of v.parents) out.push(`  ${id(p)}["${p}"] --> ${id(v.name)}["${v.name}"]`);
    }
    out.push('```', '', '| variable | states | parents |', '| --- | --- | --- |');
    for (const v of n.variables) out.push(`| ${cell(v.name)} | ${cell(v.states.join(', '))} | ${cell(v.parents.join(', ') || '—')} |`);
    out.push('');
  }
  return out.join('\n');
}

function id(name: string): string {
  return 'n_' + name.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0)}`);
}
