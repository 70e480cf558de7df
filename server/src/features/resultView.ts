/**
 * Reading the last RunResult generically, so hover, inlay hints and code lens work for every
 * result kind the engines add: each entry has `kind`, `range`, `source`, `headline`, plus fields
 * read by shape (numbers, strings, records of numbers such as a distribution or posterior).
 */
import type { ResultEntry, RunResult } from '../run/runResult.js';

const BASE_FIELDS = new Set(['kind', 'range', 'source', 'headline']);

export function entriesOverlapping(result: RunResult | undefined, line: number): ResultEntry[] {
  return result ? result.results.filter((r) => r.range.start.line <= line && line <= r.range.end.line) : [];
}

/** A record whose values are all numbers: a distribution, posteriors by hypothesis, scores. */
export function numberRecord(value: unknown): Record<string, number> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([, v]) => typeof v === 'number') ? (value as Record<string, number>) : undefined;
}

/** Every number record among an entry's fields (and its nested `result`), with the field name. */
export function numberRecords(entry: ResultEntry): { field: string; record: Record<string, number> }[] {
  const found: { field: string; record: Record<string, number> }[] = [];
  for (const [field, value] of Object.entries(entry)) {
    if (BASE_FIELDS.has(field)) continue;
    const record = numberRecord(value);
    if (record) found.push({ field, record });
    else if (field === 'result' && typeof value === 'object' && value !== null) found.push(...numberRecords(value as ResultEntry));
  }
  return found;
}

export function formatNumber(x: number): string {
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-4 || a >= 1e6) ? x.toExponential(4) : String(Number(x.toPrecision(4)));
}

/** A bar per value, for a distribution: `pos  ███████░░░  0.72`. */
export function barChart(record: Record<string, number>, width = 20): string {
  const names = Object.keys(record);
  const pad = Math.max(...names.map((n) => n.length));
  const lines = names.map((n) => {
    const p = Math.max(0, Math.min(1, record[n]));
    const full = Math.round(p * width);
    return `${n.padEnd(pad)}  ${'█'.repeat(full)}${'░'.repeat(width - full)}  ${formatNumber(record[n])}`;
  });
  return '```text\n' + lines.join('\n') + '\n```';
}

/** Everything an entry says, as Markdown: headline, then each field by its shape. */
export function entryMarkdown(entry: ResultEntry): string {
  const parts = [`**${entry.kind}** — ${escape(entry.headline)}`];
  for (const [field, value] of Object.entries(entry)) {
    if (BASE_FIELDS.has(field) || value === undefined) continue;
    const record = numberRecord(value);
    if (record) {
      const probabilities = Object.values(record).every((v) => v >= 0 && v <= 1);
      parts.push(`${field}:\n\n${probabilities ? barChart(record) : markdownTable(['', field], Object.entries(record).map(([k, v]) => [k, formatNumber(v)]))}`);
    } else if (typeof value === 'number') {
      parts.push(`${field}: ${formatNumber(value)}`);
    } else if (typeof value === 'string' || typeof value === 'boolean') {
      parts.push(`${field}: ${escape(String(value))}`);
    } else if (field === 'result' && typeof value === 'object' && value !== null && 'headline' in value) {
      parts.push(entryMarkdown(value as ResultEntry));
    } else {
      const json = JSON.stringify(value);
      parts.push(`${field}: \`${json.length > 200 ? json.slice(0, 199) + '…' : json}\``);
    }
  }
  return parts.join('\n\n');
}

export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

export function escape(s: string): string {
  return s.replace(/([*_`[\]<>])/g, '\\$1');
}
