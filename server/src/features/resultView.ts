/**
 * Reading the last RunResult generically, so hover, inlay hints and code lens work for every
 * result kind the engines add: each entry has `kind`, `range`, `source`, `headline`, plus fields
 * read by shape (numbers, strings, records of numbers such as a distribution or posterior).
 */
import type { ResultEntry, RunResult } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';
import { maxOf } from '../engine/math/extremes.js';

const BASE_FIELDS = new Set(['kind', 'range', 'source', 'headline']);
/** Source ranges nested anywhere (an expect's `result.range`, a variable's `declaration`): positions, not results. */
const RANGE_FIELDS = new Set(['range', 'declaration']);

export function entriesOverlapping(result: RunResult | undefined, line: number): ResultEntry[] {
  return result ? result.results.filter((r) => r.range.start.line <= line && line <= r.range.end.line) : [];
}

/** A record whose values are all numbers: a distribution, posteriors by hypothesis, scores. */
export function numberRecord(value: unknown): Record<string, number> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([, v]) => typeof v === 'number')
    ? (value as Record<string, number>)
    : undefined;
}

/** A number record found in an entry, with the path of fields leading to it (`marginals.Storm`). */
export interface FoundRecord {
  path: string[];
  field: string;
  record: Record<string, number>;
}

/** How deep to look: results nest records (variable → state → p) and CPT rows a few levels down. */
const MAX_DEPTH = 4;

/**
 * Every number record in an entry, however nested: `{ cancer: 0.2, healthy: 0.8 }` fields,
 * `marginals: { Storm: { true: 0.3, false: 0.7 } }`, tables given as rows
 * `[{ states: ['true'], p: 0.7 }, …]` (read as `{ true: 0.7, … }`), and rows named by a
 * `hypothesis`, `name` or `value` field: `rows: [{ hypothesis: 'cancer', prior: 0.008,
 * posterior: 0.21 }, …]` gives `rows.prior` and `rows.posterior` keyed by hypothesis.
 */
export function numberRecords(entry: ResultEntry): FoundRecord[] {
  const found: FoundRecord[] = [];
  const visit = (value: unknown, path: string[]) => {
    if (path.length > MAX_DEPTH || typeof value !== 'object' || value === null) return;
    const record = numberRecord(value) ?? rowsRecord(value);
    if (record) return void found.push({ path, field: path.join('.'), record });
    if (Array.isArray(value)) {
      for (const [column, byName] of namedRows(value))
        found.push({ path: [...path, column], field: [...path, column].join('.'), record: byName });
      return;
    }
    for (const [key, child] of Object.entries(value))
      if (!(path.length === 0 && BASE_FIELDS.has(key)) && !RANGE_FIELDS.has(key)) visit(child, [...path, key]);
  };
  visit(entry, []);
  return found;
}

const ROW_NAMES = ['hypothesis', 'name', 'value'];

/** Rows named by one of ROW_NAMES: each numeric column as a record keyed by the rows' names. */
function namedRows(rows: unknown[]): Map<string, Record<string, number>> {
  const columns = new Map<string, Record<string, number>>();
  const first = rows[0];
  const key =
    typeof first === 'object' && first !== null
      ? ROW_NAMES.find((k) => typeof (first as Record<string, unknown>)[k] === 'string')
      : undefined;
  if (!key) return columns;
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const r = row as Record<string, unknown>;
    if (typeof r[key] !== 'string') continue;
    for (const [column, v] of Object.entries(r)) {
      if (typeof v !== 'number') continue;
      const record = columns.get(column) ?? {};
      setOwn(record, r[key] as string, v);
      columns.set(column, record);
    }
  }
  return columns;
}

/** `[{ states: ['a', 'x'], p: 0.1 }, …]`: a table of joint assignments as a record keyed `a, x`. */
function rowsRecord(value: unknown): Record<string, number> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const rows = value as { states?: unknown; p?: unknown }[];
  if (!rows.every((r) => typeof r === 'object' && r !== null && Array.isArray(r.states) && typeof r.p === 'number'))
    return undefined;
  return Object.fromEntries(rows.map((r) => [(r.states as string[]).join(', '), r.p as number]));
}

/**
 * Significant digits of every number a hover or inlay hint shows (the `bayes.precision` setting):
 * set by the request handler before it builds its answer (features/index.ts).
 */
let precision = 4;

export function setPrecision(digits: number): void {
  precision = Number.isInteger(digits) && digits >= 1 && digits <= 15 ? digits : 4;
}

export function currentPrecision(): number {
  return precision;
}

/** `digits` significant digits, none invented (0.5 stays 0.5, 0.00784 stays 0.00784). */
export function formatNumber(x: number, digits = precision): string {
  if (Number.isInteger(x)) return String(x);
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-4 || a >= 1e6)) return x.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(digits)));
}

/**
 * Every decimal number in a text written by a run (a headline, a note) at the precision: no raw
 * floats like 0.10773000000000002.
 */
export function tidyNumbers(text: string, digits = precision): string {
  return text.replace(/(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?(?![\w.])/gi, (n) => formatNumber(Number(n), digits));
}

/** Fields of a result that are bookkeeping, not an answer: never shown in a hover. */
const INTERNAL_FIELDS = new Set(['cost', 'budget', 'elapsedMs', 'version', 'cached']);

/** What a field is called in a hover: the textbook's words, never a path like `rows.prior`. */
const FIELD_LABELS: Record<string, string> = {
  hypothesisBits: 'L(h), bits',
  dataBits: 'L(D | h), bits',
  totalBits: 'L(h) + L(D | h), bits',
  logLikelihood: 'log-likelihood',
  logEvidence: 'log P(e)',
  logProbability: 'log P',
  stderr: 'standard error',
  posterior: 'P(h | D)',
  prior: 'P(h)',
  likelihood: 'P(D | h)',
  product: 'P(D | h) P(h)',
  p: 'P',
};

export function fieldLabel(path: string[]): string {
  const last = [...path].reverse().find((k) => k !== 'rows' && k !== 'table' && !/^\d+$/.test(k)) ?? path.at(-1) ?? '';
  return FIELD_LABELS[last] ?? last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A bar per value, for a distribution: `pos  ███████░░░  0.72`. */
export function barChart(record: Record<string, number>, width = 20): string {
  const names = Object.keys(record);
  const pad = maxOf(names.map((n) => n.length));
  const lines = names.map((n) => {
    const p = Math.max(0, Math.min(1, record[n]));
    const full = Math.round(p * width);
    return `${n.padEnd(pad)}  ${'█'.repeat(full)}${'░'.repeat(width - full)}  ${formatNumber(record[n])}`;
  });
  return codeBlock(lines);
}

/** Records shown per hover: a CPT of a large network has hundreds of rows. */
const MAX_RECORDS = 8;

/** Everything an entry says, as Markdown: headline, scalar fields, then each distribution found. */
export function entryMarkdown(entry: ResultEntry): string {
  const parts = [`**${entry.kind}** — ${escape(tidyNumbers(entry.headline))}`];
  for (const [field, value] of Object.entries(entry)) {
    if (BASE_FIELDS.has(field) || INTERNAL_FIELDS.has(field) || value === undefined) continue;
    if (typeof value === 'number') parts.push(`${fieldLabel([field])}: ${formatNumber(value)}`);
    else if (typeof value === 'string' || typeof value === 'boolean')
      parts.push(`${fieldLabel([field])}: ${escape(tidyNumbers(String(value)))}`);
  }
  const records = numberRecords(entry).filter((r) => !r.path.some((k) => INTERNAL_FIELDS.has(k)));
  for (const { path, record } of records.slice(0, MAX_RECORDS)) {
    const label = fieldLabel(path);
    const probabilities = Object.values(record).every((v) => v >= 0 && v <= 1);
    const rows = Object.entries(record).map(([k, v]) => [k, formatNumber(v)]);
    parts.push(`${escape(label)}:\n\n${probabilities ? barChart(record) : markdownTable(['', label], rows)}`);
  }
  if (records.length > MAX_RECORDS)
    parts.push(`… and ${records.length - MAX_RECORDS} more (Show Results has them all)`);
  return parts.join('\n\n');
}

/** A table of plain-text cells: each is escaped (names hold what their files say: `|`, `![x](…)`, line breaks). */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function escapeCell(s: string): string {
  return escape(s).replace(/\|/g, '\\|');
}

/**
 * Plain text in Markdown: what could start a link, an image, HTML, a code span or emphasis is
 * escaped, a backslash too (so `\\` cannot undo the escape that follows it), and line breaks
 * become spaces (a name cannot start a block: a fence, a heading, a list).
 */
export function escape(s: string): string {
  return s.replace(/([\\*_`[\]<>])/g, '\\$1').replace(/\r\n?|\n|\u2028|\u2029/g, ' ');
}

/** The longest run of backticks in `s`. */
function longestBacktickRun(s: string): number {
  let longest = 0;
  for (const run of s.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** A fenced block the lines cannot close: its fence is longer than any backtick run they hold. */
export function codeBlock(lines: string[], language = 'text'): string {
  const body = lines.join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}

/** An inline code span the text cannot close (CommonMark: a longer backtick string, padded by spaces). */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}
