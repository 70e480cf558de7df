import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import type { CliIO } from '../../../server/src/cli/command.js';
import { capture } from '../../support/cli.js';
import { parseDocument } from '../../../server/src/language/index.js';
import type { RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot as root, sharedData } from '../../support/shared.js';

const examples = join(root, 'examples');
/**
 * The examples are self-contained (small data in examples/data) except the 20 Newsgroups archive,
 * which is not shipped: like `npm run examples`, the tests copy it there from ../shared/data.
 */
const archive = join(examples, 'data', '20news-bydate.tar.gz');
const sharedArchive = join(sharedData, '20news-bydate.tar.gz');
if (!existsSync(archive) && existsSync(sharedArchive)) copyFileSync(sharedArchive, archive);

/** Runs `main` without BAYES_DATA_ROOT: the examples need no data root. */
async function run(args: string[], io: CliIO): Promise<number> {
  const saved = process.env.BAYES_DATA_ROOT;
  delete process.env.BAYES_DATA_ROOT;
  try {
    return await main(args, io);
  } finally {
    if (saved !== undefined) process.env.BAYES_DATA_ROOT = saved;
  }
}

/** The command line for an example, with no flags; undefined (skipped) when its archive is absent. */
function cliArgs(command: string[], file: string, t: TestContext): string[] | undefined {
  if (file === 'newsgroups.bayes' && !existsSync(archive)) {
    t.skip(
      `examples/newsgroups.bayes reads examples/data/20news-bydate.tar.gz, which is not there (nor in ${sharedData})`,
    );
    return undefined;
  }
  return [...command, join('examples', file)];
}

const files = readdirSync(examples)
  .filter((f) => f.endsWith('.bayes'))
  .sort();

test('there is an example per acceptance case of LANGUAGE.md', () => {
  assert.deepEqual(files, [
    'alarm.bayes',
    'bayes_optimal.bayes',
    'calibration.bayes',
    'cancer.bayes',
    'clg.bayes',
    'decision_trees.bayes',
    'enjoysport.bayes',
    'faithful.bayes',
    'forest.bayes',
    'forest_learning.bayes',
    'formats.bayes',
    'gaussian.bayes',
    'machine_monitoring.bayes',
    'newsgroups.bayes',
    'oil-wildcatter.bayes',
    'playtennis.bayes',
    'soft_evidence.bayes',
    'structure_learning.bayes',
    'text_folders.bayes',
    'thumbtack.bayes',
    'tracking.bayes',
    'train_test_files.bayes',
    'two_gaussians.bayes',
    'two_tests.bayes',
    'umbrella.bayes',
    'validation.bayes',
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

test('a model naming a file outside the workspace is refused, and the message says where it looked', async () => {
  const io = capture(root);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-examples-'));
  const model = join(dir, 'outside.bayes');
  writeFileSync(model, 'corpus News from "../../shared/data/20news-bydate.tar.gz" label folder\n');
  assert.equal(await run(['check', model], io), 1);
  assert.match(
    io.stdout,
    /outside\.bayes:1:18: error: "\.\.\/\.\.\/shared\/data\/20news-bydate\.tar\.gz" is outside the workspace/,
  );
});
