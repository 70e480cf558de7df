import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import type { CliIO } from '../../../server/src/cli/command.js';
import { capture } from '../../support/cli.js';
import { parseDocument } from '../../../server/src/language/index.js';
import type { RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot as root, sharedData } from '../../support/shared.js';

const examples = join(root, 'examples');
/** The examples name shared files by their place beside the repository, as CI lays it out. */
const dataRoot = sharedData;
/** Examples reading the shared data (outside the project), with the file each one reads. */
const needsSharedData = new Map([
  ['newsgroups.bayes', join(dataRoot, '20news-bydate.tar.gz')],
  ['faithful.bayes', join(dataRoot, 'tables', 'old-faithful', 'faithful.csv')],
  ['alarm.bayes', join(dataRoot, 'bif', 'alarm.bif')],
]);

/** Runs `main` without BAYES_DATA_ROOT, so only the data roots a test passes count. */
async function run(args: string[], io: CliIO): Promise<number> {
  const saved = process.env.BAYES_DATA_ROOT;
  delete process.env.BAYES_DATA_ROOT;
  try {
    return await main(args, io);
  } finally {
    if (saved !== undefined) process.env.BAYES_DATA_ROOT = saved;
  }
}

/** The command line for an example, with the data root it needs; undefined (skipped) without ../shared. */
function cliArgs(command: string[], file: string, t: TestContext): string[] | undefined {
  const shared = needsSharedData.get(file);
  if (shared && !existsSync(shared)) {
    t.skip(`examples/${file} reads ${shared}, which is not there (../shared beside the repository)`);
    return undefined;
  }
  return [...command, join('examples', file), ...(shared ? ['--data-root', dataRoot] : [])];
}

const files = readdirSync(examples)
  .filter((f) => f.endsWith('.bayes'))
  .sort();

test('there is an example per acceptance case of LANGUAGE.md', () => {
  assert.deepEqual(files, [
    'alarm.bayes',
    'bayes_optimal.bayes',
    'cancer.bayes',
    'decision_trees.bayes',
    'enjoysport.bayes',
    'faithful.bayes',
    'forest.bayes',
    'forest_learning.bayes',
    'newsgroups.bayes',
    'playtennis.bayes',
    'thumbtack.bayes',
    'two_gaussians.bayes',
    'two_tests.bayes',
  ]);
});

for (const file of files) {
  test(`bayes check examples/${file} exits 0`, async (t) => {
    const args = cliArgs(['check'], file, t);
    if (!args) return;
    const io = capture(root);
    const code = await run(args, io);
    assert.equal(code, 0, io.stdout + io.stderr);
    assert.doesNotMatch(io.stdout, /: error: /);
  });

  test(`bayes run examples/${file}: exit 0, every expect holds`, async (t) => {
    const args = cliArgs(['run', '--json'], file, t);
    if (!args) return;
    const io = capture(root);
    const code = await run(args, io);
    const result = JSON.parse(io.stdout) as RunResult;
    const errors = result.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.range.start.line + 1}: ${d.message}`);
    assert.deepEqual(errors, []);
    const expects = result.results.filter((r) => r.kind === 'expect');
    assert.ok(expects.length > 0);
    assert.deepEqual(
      expects.filter((r) => !r.passed).map((r) => r.source),
      [],
    );
    assert.equal(code, 0);
  });

  test(`examples/${file} states its textbook numbers in expect lines`, () => {
    const { ast } = parseDocument(readFileSync(join(examples, file), 'utf8'));
    assert.ok(
      ast.statements.some((s) => s.kind === 'expectStatement'),
      'no expect line',
    );
  });
}

test('without the data root the corpus outside the workspace is refused', async () => {
  const io = capture(root);
  assert.equal(await run(['check', 'examples/newsgroups.bayes'], io), 1);
  assert.match(
    io.stdout,
    /newsgroups\.bayes:6:18: error: "\.\.\/\.\.\/shared\/data\/20news-bydate\.tar\.gz" is outside the workspace/,
  );
});
