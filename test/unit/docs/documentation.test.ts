/**
 * Every ```bayes block of docs/language.md and README.md runs as a whole file through the same
 * pipeline as `bayes run`, as if saved in examples/ (the repository as workspace, ../shared/data
 * as data root): it checks clean (no errors or warnings), every `expect` line gives a verdict and
 * every verdict holds. A block whose first line is `// fragment` is only parsed, and must have no
 * syntax errors. Paths `../../shared/data/…` in a block mean the shared data beside the
 * repository; when it lies elsewhere (BAYES_SHARED) they are pointed there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseDocument } from '../../../server/src/language/index.js';
import { runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { NO_SHARED, repoRoot, sharedData } from '../../support/shared.js';

export interface DocBlock {
  file: string;
  line: number;
  text: string;
}

/** The ```bayes blocks of a Markdown file, each with the 1-based line of its first code line. */
export function bayesBlocks(file: string): DocBlock[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const blocks: DocBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```bayes') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    blocks.push({ file, line: start + 1, text: lines.slice(start, end).join('\n') + '\n' });
    i = end;
  }
  return blocks;
}

const DOCUMENTS = ['docs/language.md', 'README.md'];
const hasShared = existsSync(sharedData);

describe('every documented line runs', () => {
  it('finds the blocks', () => {
    assert.ok(bayesBlocks('docs/language.md').length >= 10);
    assert.ok(bayesBlocks('README.md').length >= 1);
  });

  for (const file of DOCUMENTS) {
    for (const block of bayesBlocks(file)) {
      const fragment = /^\s*\/\/\s*fragment\b/.test(block.text);
      it(
        `${file}:${block.line}${fragment ? ' (fragment)' : ''}`,
        { skip: !fragment && !hasShared && NO_SHARED },
        async () => {
          if (fragment) {
            const syntax = parseDocument(block.text).diagnostics.filter((d) => d.severity === 'error');
            assert.deepEqual(
              syntax.map((d) => `${block.line + d.range.start.line}: ${d.message}`),
              [],
            );
            return;
          }
          const folder = join(repoRoot, 'examples');
          const documentPath = join(folder, `doc-block-${block.line}.bayes`);
          const env = nodeEnvironment({ documentPath, workspaceRoot: repoRoot, dataRoots: [sharedData] });
          const shared = relative(folder, sharedData).split(sep).join('/');
          const text = block.text.replaceAll('"../../shared/data/', `"${shared}/`);
          const result = await runText(text, documentPath, env);
          const at = (line: number) => `${file}:${block.line + line}`;
          const errors = result.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
          assert.deepEqual(
            errors.map((d) => `${at(d.range.start.line)}: ${d.severity} ${d.code}: ${d.message}`),
            [],
          );
          const expects = result.results.filter((r) => r.kind === 'expect');
          const failed = expects.filter((r) => !r.passed).map((r) => `${at(r.range.start.line)}: ${r.headline}`);
          assert.deepEqual(failed, []);
          assert.deepEqual(result.notEvaluated ?? [], []);
          const written = block.text.split('\n').filter((l) => /^\s*expect\b/.test(l)).length;
          assert.equal(expects.length, written, `${file}:${block.line}: every expect line gives a verdict`);
        },
      );
    }
  }
});
