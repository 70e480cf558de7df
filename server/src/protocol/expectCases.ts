/**
 * A run's `expect` lines as test cases — what `bayes test` reports and the editor's Test Explorer
 * shows: each expect passed or failed (expected as written, the actual value), each expect that
 * gave no verdict an error, and a model whose errors stop it before any expect one error case.
 */
import type { Range } from '../language/diagnostics.js';
import type { RunResult } from './runResult.js';

export interface ExpectCase {
  /** The expect line's source, trimmed (a file-level error: the file's name). */
  name: string;
  /** 1-based line. */
  line: number;
  range?: Range;
  status: 'passed' | 'failed' | 'error';
  /** The comparison as written (`≈ 0.2085 ± 0.001`). */
  expected: string;
  actual?: number | string;
  message?: string;
  timeMs?: number;
}

export interface FileCases {
  file: string;
  timeMs: number;
  cases: ExpectCase[];
}

/** `format(file, diagnostic)` writes a model error (the CLI's `file:line:col: error: …`). */
export function expectCases(
  result: RunResult,
  format: (file: string, d: RunResult['diagnostics'][number]) => string,
): ExpectCase[] {
  const cases: ExpectCase[] = [];
  for (const r of result.results) {
    if (r.kind !== 'expect') continue;
    const actual = typeof r.actual === 'number' ? Number(r.actual.toPrecision(12)) : r.actual;
    cases.push({
      name: firstLine(r.source),
      line: r.range.start.line + 1,
      range: r.range,
      status: r.passed ? 'passed' : 'failed',
      expected: r.expected,
      actual: r.actual,
      ...(r.passed ? {} : { message: `expected ${r.expected}, got ${actual}` }),
      ...(r.elapsedMs !== undefined ? { timeMs: r.elapsedMs } : {}),
    });
  }
  for (const s of result.notEvaluated ?? []) {
    cases.push({
      name: firstLine(s.source),
      line: s.range.start.line + 1,
      range: s.range,
      status: 'error',
      expected: '',
      message: `not evaluated: ${s.reason}`,
    });
  }
  cases.sort((a, b) => a.line - b.line);
  const errors = result.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'expect-failed');
  const inCases = (d: (typeof errors)[number]) => cases.some((c) => c.line === d.range.start.line + 1);
  const loose = errors.filter((d) => !inCases(d));
  if (loose.length) {
    cases.unshift({
      name: result.file,
      line: loose[0]!.range.start.line + 1,
      range: loose[0]!.range,
      status: 'error',
      expected: '',
      message: loose.map((d) => format(result.file, d)).join('\n'),
    });
  }
  return cases;
}

function firstLine(source: string): string {
  return source.trim().split('\n')[0]!;
}
