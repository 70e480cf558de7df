/** Running models through `bayes run`'s pipeline for the learning handlers' tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runText, type RunOptions } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import type { ResultEntry, RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot, sharedData } from '../../support/shared.js';

/** Runs `text` as if it were examples/model.bayes (the data root beside the repository allowed), or a file in `dir`. */
export function run(text: string, options: RunOptions & { dir?: string } = {}): Promise<RunResult> {
  const dir = options.dir ?? join(repoRoot, 'examples');
  const env = nodeEnvironment({ documentPath: join(dir, 'model.bayes'), workspaceRoot: dir, dataRoots: [sharedData] });
  return runText(text, 'model.bayes', env, options);
}

export function runExample(name: string): Promise<RunResult> {
  return run(readFileSync(join(repoRoot, 'examples', name), 'utf8'));
}

export function entries<K extends ResultEntry['kind']>(
  result: RunResult,
  kind: K,
): Extract<ResultEntry, { kind: K }>[] {
  return result.results.filter((r): r is Extract<ResultEntry, { kind: K }> => r.kind === kind);
}

/** Diagnostics as [code, 1-based line, message] for readable assertions. */
export function problems(
  result: RunResult,
  severity: 'error' | 'warning' | 'information' = 'error',
): Array<[string | undefined, number, string]> {
  return result.diagnostics
    .filter((d) => d.severity === severity)
    .map((d) => [d.code, d.range.start.line + 1, d.message]);
}

/** P(child = state | parents) read from a learnt table in JSON form. */
export function cell(
  cpts: Record<string, { rows: Array<{ given: Record<string, string>; distribution: Record<string, number> }> }>,
  child: string,
  state: string,
  given: Record<string, string> = {},
): number {
  const row = cpts[child]!.rows.find((r) => Object.entries(given).every(([k, v]) => r.given[k] === v))!;
  return row.distribution[state]!;
}
