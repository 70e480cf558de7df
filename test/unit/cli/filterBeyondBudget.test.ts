/**
 * `bayes filter`: soft findings (--soft), the particle filter beyond the memory budget (labelled,
 * standard errors, a seed) and the progress line on a terminal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { forwardBackward } from '../../../server/src/engine/dynamic/forwardBackward.js';
import type { TwoSliceNetwork } from '../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { createRng } from '../../../server/src/engine/random.js';
import { capture, tempFile } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';
import { randomTwoSlice, sampleFindings, twoSliceText } from '../../support/dynamicNetworks.js';

const umbrella = join(repoRoot, 'examples', 'umbrella.bayes');
const umbrellaCsv = join(repoRoot, 'examples', 'data', 'umbrella.csv');
const filterArgs = ['filter', umbrella, '--network', 'Umbrella', '--observations', umbrellaCsv];

test('bayes filter --soft: Jeffrey on the umbrella world by hand, and the engine on a random network', async () => {
  const io = capture();
  assert.equal(await main([...filterArgs, '--soft', '1:Rain=0.6,0.4', '--json'], io), 0, io.stderr);
  const out = JSON.parse(io.stdout);
  assert.equal(out.method, 'exact');
  // Day 1's belief is 0.6 exactly; day 2: 0.54 before the umbrella (0.6·0.7 + 0.4·0.3), then 0.486 / 0.578.
  assert.ok(Math.abs(out.steps[0].filtered.Rain.yes - 0.6) < 1e-12);
  assert.ok(Math.abs(out.steps[1].filtered.Rain.yes - 0.486 / 0.578) < 1e-12);
  // log P(u1) + log P'(u2): the soft finding adds nothing itself.
  assert.ok(Math.abs(out.logLikelihood - Math.log(0.55 * 0.578)) < 1e-12);

  const dbn: TwoSliceNetwork = { ...randomTwoSlice(31, 3), name: 'Random' };
  const { file, dir } = tempFile('random.bayes', twoSliceText(dbn));
  const findings = sampleFindings(createRng(8), dbn, 4, [2]);
  const csv = join(dir, 'obs.csv');
  writeFileSync(csv, ['V2', ...findings.map((f) => dbn.variables[2]!.states[f.evidence.get(2)!])].join('\n') + '\n');
  const q = dbn.variables[0]!.states.length === 2 ? [0.3, 0.7] : [0.2, 0.3, 0.5];
  findings[1] = { ...findings[1]!, soft: new Map([[0, q]]) };
  const r = forwardBackward(dbn, findings, { smooth: true });
  const rio = capture();
  const args = [
    'filter',
    file,
    '--network',
    'Random',
    '--observations',
    csv,
    '--json',
    '--soft',
    `2:V0=${q.join(',')}`,
  ];
  assert.equal(await main(args, rio), 0, rio.stderr);
  const got = JSON.parse(rio.stdout);
  got.steps.forEach((s: Record<string, Record<string, Record<string, number>>>, t: number) =>
    dbn.variables.forEach((v, j) =>
      v.states.forEach((st, x) => {
        assert.ok(Math.abs(s.filtered![v.name]![st]! - r.filtered[t]![j]![x]!) < 1e-12);
        assert.ok(Math.abs(s.smoothed![v.name]![st]! - r.smoothed![t]![j]![x]!) < 1e-12);
      }),
    ),
  );
});

test('bayes filter: bad --soft, --particles and --seed are clear errors', async () => {
  const cases: [string[], number, RegExp][] = [
    [['--soft', '1:Rain=0.6,0.6'], 1, /--soft 1:Rain=0\.6,0\.6: the probabilities sum to 1\.2, not 1/],
    [['--soft', '1:Umbrella=0.5,0.5'], 1, /Umbrella is observed at step 1/],
    [['--soft', '3:Rain=0.5,0.5'], 1, /step 3 is not one of 1…2/],
    [['--soft', '1:Rain=0.5,0.5', '--soft', '1:Rain=0.2,0.8'], 1, /already has a soft finding at step 1/],
    [['--soft', 'Rain=0.5'], 1, /write T:VAR=P1,P2,…/],
    [['--particles', '10'], 2, /--particles must be an integer ≥ 200/],
    [['--seed', 'x'], 2, /--seed must be an integer ≥ 0, not 'x'/],
  ];
  for (const [extra, code, message] of cases) {
    const io = capture();
    assert.equal(await main([...filterArgs, ...extra], io), code, extra.join(' '));
    assert.match(io.stderr, message);
  }
});

/** 20 binary variables in a ring, each carried over with its neighbour: the interface is the whole slice. */
function ring(): TwoSliceNetwork {
  const n = 20;
  const variables = Array.from({ length: n }, (_, i) => ({ name: `V${i}`, states: ['on', 'off'] }));
  return {
    name: 'Ring',
    variables,
    initial: variables.map((_, i) => ({ child: i, parents: [], table: Float64Array.of(0.5, 0.5) })),
    transition: variables.map((_, i) => ({
      child: i,
      parents: [n + i, n + ((i + 1) % n)],
      table: Float64Array.of(0.9, 0.1, 0.6, 0.4, 0.4, 0.6, 0.1, 0.9),
    })),
  };
}

test('bayes filter beyond the budget: a particle filter, labelled, with standard errors, the same for a seed', async () => {
  const { file, dir } = tempFile('ring.bayes', twoSliceText(ring()));
  const csv = join(dir, 'ring.csv');
  writeFileSync(csv, 'V0,V5\non,on\non,off\n?,off\n');
  const run = async (seed: string) => {
    const io = capture();
    const args = ['filter', file, '--network', 'Ring', '--observations', csv, '--particles', '1000', '--seed', seed];
    assert.equal(await main([...args, '--json', '--predict', '1'], io), 0, io.stderr);
    return JSON.parse(io.stdout);
  };
  const a = await run('5');
  assert.equal(a.method, 'particle');
  assert.equal(a.particles, 1000);
  assert.equal(a.seed, 5);
  assert.match(
    a.note,
    /the junction tree needs [\d,]+ clique entries, over the budget of [\d,]+: filtered by a particle filter/,
  );
  assert.equal(a.mostLikely, undefined);
  assert.equal(a.steps.length, 3);
  for (const s of a.steps) {
    assert.equal(s.smoothed, undefined);
    assert.equal(Object.keys(s.standardErrors).length, 20);
    const p = s.filtered.V3.on;
    assert.ok(p > 0 && p < 1 && Math.abs(p + s.filtered.V3.off - 1) < 1e-12);
    assert.ok(s.standardErrors.V3.on > 0 && s.standardErrors.V3.on < 0.1);
  }
  // Observed at its state: certain, no error.
  assert.ok(Math.abs(a.steps[0].filtered.V0.on - 1) < 1e-12);
  assert.ok(a.steps[0].standardErrors.V0.on < 1e-12);
  assert.equal(a.predicted[0].t, 4);
  assert.ok(a.predicted[0].standardErrors.V0.on > 0);
  assert.deepEqual(await run('5'), a);
  assert.notDeepEqual((await run('6')).steps, a.steps);
  const text = capture();
  assert.equal(
    await main(['filter', file, '--network', 'Ring', '--observations', csv, '--particles', '1000'], text),
    0,
  );
  assert.match(text.stdout, /particle filter \(1000 particles, seed 1; ± standard error\)/);
  assert.match(text.stdout, /V1 +filtered on 0\.\d{4} ± 0\.\d{4}/);
});

test('bayes filter on a terminal: a progress line of steps on standard error, none with --json', async () => {
  const tty = Object.assign(capture(), { errIsTTY: true });
  assert.equal(await main(filterArgs, tty), 0, tty.stderr);
  // Lines are redrawn at most every so often, so which of the first steps is drawn depends on the
  // machine's speed; the last step always is.
  assert.match(tty.stderr, /filter 9\/9 steps · [\d.]+\/s · most likely sequence/);
  assert.match(tty.stdout, /filtered yes 0\.8182/);
  const json = Object.assign(capture(), { errIsTTY: true });
  assert.equal(await main([...filterArgs, '--json'], json), 0);
  assert.equal(json.stderr, '');
});

test('the language: `given D, X[k] ~ { … }` is a soft finding at step k, as --soft; a step past the data is an error on it', async () => {
  const model = readFileSync(umbrella, 'utf8')
    .replace(/^expect .*$/gm, '')
    .replace(/^data Days from .*$/m, 'data Days {\n  Umbrella\n  yes\n  yes\n}');
  const queries = [
    'query P(Rain[2] = yes) in Umbrella using filtering given Days, Rain[1] ~ { yes: 0.6, no: 0.4 }',
    'query P(Rain[1] = yes) in Umbrella given Days, Rain[1] ~ { yes: 0.6, no: 0.4 }',
    'query P(Rain[2] = yes) in Umbrella using filtering given Days, Rain[1] ~ likelihood { yes: 0.6, no: 0.4 }',
  ];
  const { file } = tempFile('soft.bayes', model + queries.join('\n') + '\n');
  const io = capture();
  assert.equal(await main(['run', file], io), 0, io.stdout + io.stderr);
  const cli = capture();
  assert.equal(await main([...filterArgs, '--soft', '1:Rain=0.6,0.4', '--json'], cli), 0);
  const steps = JSON.parse(cli.stdout).steps;
  const six = (p: number) => String(Number(p.toPrecision(6)));
  assert.ok(io.stdout.includes(`P(Rain[2] = yes) = ${six(steps[1].filtered.Rain.yes)} (filtered`), io.stdout);
  assert.ok(io.stdout.includes(`P(Rain[1] = yes) = ${six(steps[0].smoothed.Rain.yes)} (smoothed`), io.stdout);
  // Virtual evidence λ = (0.6, 0.4) on day 1: 0.818·0.6 / (0.818·0.6 + 0.182·0.4), then a day of rain and an umbrella.
  const r1 = (0.45 * 0.6) / (0.45 * 0.6 + 0.1 * 0.4);
  const r2 = r1 * 0.7 + (1 - r1) * 0.3;
  assert.ok(io.stdout.includes(`= ${six((r2 * 0.9) / (r2 * 0.9 + (1 - r2) * 0.2))} (filtered`), io.stdout);
  const past = tempFile(
    'past.bayes',
    model + 'query P(Rain[1] = yes) in Umbrella given Days, Rain[5] ~ { yes: 0.6, no: 0.4 }\n',
  );
  const bad = capture();
  assert.equal(await main(['run', past.file], bad), 1);
  assert.match(bad.stdout + bad.stderr, /past\.bayes:\d+:\d+: error: step 5 is past the data's 2 rows/);
  const noStep = tempFile(
    'nostep.bayes',
    model + 'query P(Rain[1] = yes) in Umbrella given Days, Rain ~ { yes: 0.6, no: 0.4 }\n',
  );
  const check = capture();
  assert.equal(await main(['check', noStep.file], check), 1);
  assert.match(check.stdout + check.stderr, /name the step of the finding: Rain\[k\], k ≥ 1/);
});
