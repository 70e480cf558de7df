/** Shared by the run tests: run a model (inline or an example) through the real pipeline. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerTable } from '../../../server/src/run/handlerContext.js';
import { runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import type { ResultEntry, RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot, sharedData } from '../../support/shared.js';
import { close as closeWithin } from '../../support/close.js';

/** Runs `text` as if it were examples/inline.bayes, with ../shared/data as a data root. */
export function run(text: string, file = 'inline.bayes', handlers?: HandlerTable): Promise<RunResult> {
  const documentPath = join(repoRoot, 'examples', file);
  const env = nodeEnvironment({ documentPath, workspaceRoot: repoRoot, dataRoots: [sharedData] });
  return runText(text, documentPath, env, { handlers });
}

export function runExample(name: string): Promise<RunResult> {
  return run(readFileSync(join(repoRoot, 'examples', name), 'utf8'), name);
}

/** The result of the statement on 0-based `line`, of the given kind. */
export function resultAt<K extends ResultEntry['kind']>(
  result: RunResult,
  line: number,
  kind: K,
): Extract<ResultEntry, { kind: K }> {
  const entry = result.results.find((r) => r.range.start.line === line);
  assert.ok(
    entry,
    `no result on line ${line + 1}; diagnostics: ${result.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')}`,
  );
  const inner = entry.kind === 'expect' ? entry.result : entry;
  assert.equal(inner?.kind, kind);
  return inner as Extract<ResultEntry, { kind: K }>;
}

/** The first result of a kind. */
export function first<K extends ResultEntry['kind']>(result: RunResult, kind: K): Extract<ResultEntry, { kind: K }> {
  const entry = result.results.find((r) => r.kind === kind);
  assert.ok(
    entry,
    `no ${kind} result; diagnostics: ${result.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')}`,
  );
  return entry as Extract<ResultEntry, { kind: K }>;
}

/** Every expect's verdict as [line (1-based), passed, actual]. */
export function verdicts(result: RunResult): [number, boolean, number | string][] {
  return result.results.flatMap((r) =>
    r.kind === 'expect' ? [[r.range.start.line + 1, r.passed, r.actual] as [number, boolean, number | string]] : [],
  );
}

export function errors(result: RunResult): { code: string; line: number; message: string }[] {
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code ?? '', line: d.range.start.line, message: d.message }));
}

/** support/close.ts with the run tests' default tolerance. */
export function close(actual: number, expected: number, tolerance = 1e-12): void {
  closeWithin(actual, expected, tolerance);
}

/**
 * Mitchell's EnjoySport examples (Table 2.1) as a data block, and the space of conjunctions over
 * them (8 lines: statements after it start on line 9).
 */
export const ENJOY_SPORT = `data Days {
  Sky,   AirTemp, Humidity, Wind,   Water, Forecast, Enjoy
  Sunny, Warm,    Normal,   Strong, Warm,  Same,     Yes
  Sunny, Warm,    High,     Strong, Warm,  Same,     Yes
  Rainy, Cold,    High,     Strong, Warm,  Change,   No
  Sunny, Warm,    High,     Strong, Cool,  Change,   Yes
}
hypotheses Conj = conjunctions(Sky, AirTemp, Humidity, Wind, Water, Forecast) -> Enjoy = Yes`;
