/**
 * `bayes/expects`: the `expect` statements of a document with their ranges and text, in source
 * order — the editor's Test Explorer makes each a test of the file before anything has run.
 */
import { allStatements, type BayesFile } from '../language/index.js';
import type { ExpectItem } from '../protocol/messages.js';

export function expectItems(file: BayesFile, text: string): ExpectItem[] {
  const lines = text.split('\n');
  return allStatements(file)
    .filter((s) => s.kind === 'expectStatement')
    .map((s) => ({
      range: s.range,
      source: (lines[s.range.start.line] ?? '').slice(s.range.start.character).trim(),
    }));
}
