/** The `network` result entries the results view draws: one per network, with marginals given `observe`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enumerate } from '../../support/networks.js';
import { close } from '../../support/close.js';
import { join } from 'node:path';
import { NO_SHARED, repoRoot, sharedData, sharedFile } from '../../support/shared.js';
import { assertNoErrors, example, networkOf, resultsOf, run } from './networkHelpers.js';

test('Forest: one entry, prior marginals by enumeration, CPTs and declaration ranges', async () => {
  const forest = example('forest');
  const result = await run(forest);
  const entries = resultsOf(result, 'network');
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry!.network, 'Forest');
  assert.equal(
    entry!.range.start.line,
    forest.split('\n').findIndex((l) => l.startsWith('network Forest')),
  );
  const truth = enumerate(networkOf(forest, 'Forest'), new Map());
  entry!.variables.forEach((v, i) => v.marginal.forEach((p, s) => close(p, truth.marginals[i]![s]!, 1e-12)));
  const campfire = entry!.variables.find((v) => v.name === 'Campfire')!;
  assert.deepEqual(campfire.parents, ['Storm', 'BusTourGroup']);
  assert.deepEqual(campfire.cpt.rows[1], {
    given: { Storm: 'true', BusTourGroup: 'false' },
    distribution: { true: 0.1, false: 0.9 },
  });
  assert.match(forest.split('\n')[campfire.declaration!.start.line]!, /P\(Campfire \| Storm, BusTourGroup\)/);
  assert.equal(entry!.headline, 'Forest: 6 variables');
});

test("the default model: marginals given the file's observe lines, the evidence marked", async () => {
  const result = await run(example('two_tests'));
  const [entry] = resultsOf(result, 'network');
  assert.equal(entry!.network, 'default');
  const diagnosis = entry!.variables.find((v) => v.name === 'Diagnosis')!;
  close(diagnosis.marginal[0], (0.008 * 0.98 ** 2) / (0.008 * 0.98 ** 2 + 0.992 * 0.03 ** 2), 1e-15);
  assert.equal(entry!.variables.find((v) => v.name === 'Test')!.evidence, 'pos');
  assert.equal(entry!.variables.length, 2, 'the replicated observation is not drawn');
  assert.equal(entry!.headline, 'default: 2 variables, 1 observed');
});

test('an imported network has an entry; parameter priors and classifiers do not', async (t) => {
  const thumbtack = await run(example('thumbtack'));
  assert.deepEqual(resultsOf(thumbtack, 'network'), []);
  const tennis = await run(example('playtennis'));
  assert.deepEqual(resultsOf(tennis, 'network'), []);
  if (!sharedFile('bif', 'alarm.bif')) return t.skip(NO_SHARED);
  const alarm = await run(example('alarm'));
  assertNoErrors(alarm);
  const [entry] = resultsOf(alarm, 'network');
  assert.equal(entry!.network, 'Alarm');
  assert.equal(entry!.variables.length, 37);
  close(entry!.variables.find((v) => v.name === 'HR')!.marginal[2], 0.814885858333098, 2e-7);
});

test('impossible observations are an error on the observe line', async () => {
  const result = await run('variable A, B : bool\nP(A) = 1\nP(B | A) { true: 0.5, false: 0.5 }\nobserve A = false\n');
  const d = result.diagnostics.find((x) => x.code === 'evidence-impossible')!;
  assert.equal(d.range.start.line, 3);
  assert.deepEqual(resultsOf(result, 'network')[0]!.variables[0]!.marginal, []);
});

test('bayes run exits 0 on the network examples', async (t) => {
  const { main } = await import('../../../server/src/cli.js');
  const files = ['forest.bayes', ...(sharedFile('bif', 'alarm.bif') ? ['alarm.bayes'] : [])];
  for (const file of files) {
    let out = '';
    const io = {
      cwd: process.cwd(),
      out: (s: string) => {
        out += s;
      },
      err: (s: string) => {
        out += s;
      },
    };
    assert.equal(await main(['run', join(repoRoot, 'examples', file), '--data-root', sharedData], io), 0, out);
  }
  if (files.length === 1) t.skip(`alarm.bayes not run: ${NO_SHARED}`);
});

test("a network of one variable says '1 variable'", async () => {
  const result = await run('network One {\n  variable A : bool\n  P(A) = 0.3\n}\n');
  const [entry] = resultsOf(result, 'network');
  assert.equal(entry!.headline, 'One: 1 variable');
});
