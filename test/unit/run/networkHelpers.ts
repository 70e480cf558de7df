/** Running models through the whole pipeline for the belief-network handler tests. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkText, runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { compileNetwork } from '../../../server/src/model/compileNetwork.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import type { ExpectResult, ResultEntry, RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot, sharedData } from '../../support/shared.js';

/** A model as if saved in examples/, which may read ../shared/data. */
export function environment() {
  return nodeEnvironment({
    documentPath: join(repoRoot, 'examples', 'model.bayes'),
    workspaceRoot: repoRoot,
    dataRoots: [sharedData],
  });
}

export function run(text: string): Promise<RunResult> {
  return runText(text, 'model.bayes', environment());
}

export function example(name: string): string {
  return readFileSync(join(repoRoot, 'examples', `${name}.bayes`), 'utf8');
}

/** The network a model declares, compiled as the handlers see it. */
export function networkOf(text: string, scope?: string): BayesianNetwork {
  const env = environment();
  const checked = checkText(text, env);
  return compileNetwork(checked.parse.ast, checked.symbols, env, scope);
}

/** The results of one kind, unwrapping expect lines. */
export function resultsOf<K extends ResultEntry['kind']>(
  result: RunResult,
  kind: K,
): Extract<ResultEntry, { kind: K }>[] {
  return result.results
    .map((r) => (r.kind === 'expect' ? (r.result ?? r) : r))
    .filter((r): r is Extract<ResultEntry, { kind: K }> => r.kind === kind);
}

export function expectations(result: RunResult): ExpectResult[] {
  return result.results.filter((r): r is ExpectResult => r.kind === 'expect');
}

/** No error diagnostics except those listed by code. */
export function assertNoErrors(result: RunResult, allowed: string[] = []): void {
  const errors = result.diagnostics.filter((d) => d.severity === 'error' && !allowed.includes(d.code));
  assert.deepEqual(errors, []);
}
