import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { forwardSample, hideAtRandom } from '../../../server/src/engine/sampling/forwardSampling.js';
import { learnCpts } from '../../../server/src/engine/estimators/cptLearning.js';
import { createRng } from '../../../server/src/engine/random.js';
import { familyScore } from '../../../server/src/engine/structure/structureScore.js';
import { readBif } from '../../../server/src/model/bif.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';
import { loadBif } from '../../support/networks.js';
import { toCsv } from '../../support/learning.js';

const dir = mkdtempSync(join(tmpdir(), 'bayes-learn-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('bayes learn --json on complete CSV data prints the counting CPTs; --out writes BIF that reads back', async (t) => {
  const bif = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!bif || !net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 2000, createRng(1));
  const csv = join(dir, 'asia.csv');
  writeFileSync(csv, toCsv(data));
  const io = capture();
  assert.equal(await main(['learn', bif, '--data', csv, '--json', '--out', join(dir, 'out.bif')], io), 0, io.stderr);
  const out = JSON.parse(io.stdout);
  assert.equal(out.method, 'counting');
  assert.equal(out.records, 2000);
  const expected = learnCpts(net, data);
  const dysp = out.cpts.dysp;
  assert.deepEqual(dysp.parents, ['bronc', 'either']);
  assert.deepEqual(dysp.rows[0].given, { bronc: 'yes', either: 'yes' });
  const v = net.variables.findIndex((x) => x.name === 'dysp');
  assert.equal(dysp.rows[0].distribution.yes, expected.cpts[v]!.table[0]);
  const back = readBif(readFileSync(join(dir, 'out.bif'), 'utf8'));
  assert.ok('network' in back);
  assert.ok(Math.abs(back.network.cpts[v]!.table[0]! - expected.cpts[v]!.table[0]!) < 1e-6);
});

test('bayes learn picks EM for missing values, reads headerless network-order tables, and is seeded', async (t) => {
  const bif = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!bif || !net) return t.skip(NO_SHARED);
  const data = hideAtRandom(forwardSample(net, 1000, createRng(2)), 0.2, createRng(3));
  const csv = join(dir, 'asia-missing.dat');
  writeFileSync(csv, toCsv(data, false).replaceAll(',', ' '));
  const run = async () => {
    const io = capture();
    assert.equal(
      await main(['learn', bif, '--data', csv, '--json', '--seed', '5', '--iterations', '50'], io),
      0,
      io.stderr,
    );
    return JSON.parse(io.stdout);
  };
  const a = await run();
  assert.equal(a.method, 'em');
  assert.ok(a.iterations > 1);
  for (let i = 1; i < a.trace.length; i++) assert.ok(a.trace[i] >= a.trace[i - 1] - 1e-9 * Math.abs(a.trace[i - 1]));
  assert.deepEqual((await run()).cpts, a.cpts);
  const io = capture();
  assert.equal(
    await main(['learn', bif, '--data', csv, '--method', 'gradient', '--iterations', '20', '--progress'], io),
    0,
    io.stderr,
  );
  assert.match(io.stdout, /learned by gradient from 1000 records/);
  assert.match(io.stderr, /^restart 1, iteration 1: log-likelihood -\d+\.\d{4}\n/);
});

test('bayes learn --method counting on alarm-em records.dat: records of probability 0 are reported, the tables still written', async (t) => {
  const bif = sharedFile('tables', 'alarm-em', 'alarm.bif');
  const dat = sharedFile('tables', 'alarm-em', 'records.dat');
  if (!bif || !dat) return t.skip(NO_SHARED);
  const out = join(dir, 'alarm-counted.bif');
  const io = capture();
  assert.equal(await main(['learn', bif, '--data', dat, '--method', 'counting', '--out', out], io), 0, io.stderr);
  assert.match(io.stdout, /log-likelihood -∞\n/);
  const count = /^(\d+) of 11100 records \((\d+) distinct\) ha(?:s|ve) probability 0 under the counted tables/m.exec(
    io.stdout,
  );
  assert.ok(count && Number(count[1]) >= 1, io.stdout);
  assert.match(
    io.stdout,
    /e\.g\. \(Hypovolemia=\w+, .*\): every way to fill in its missing values meets a table entry of 0/,
  );
  assert.match(io.stdout, /--prior laplace \(or --method em\) gives every record a probability/);
  const rest = /^log-likelihood of the other (\d+) records (-\d+\.\d{4})$/m.exec(io.stdout);
  assert.ok(rest && Number(rest[1]) === 11100 - Number(count[1]));
  // Counting is close to, and below, EM's maximum (about -101,940 over all the records).
  assert.ok(Number(rest[2]) < -101_000 && Number(rest[2]) > -103_000, rest[2]);
  const written = readBif(readFileSync(out, 'utf8'));
  assert.ok('network' in written && written.network.variables.length === 37);
  const json = capture();
  assert.equal(await main(['learn', bif, '--data', dat, '--method', 'counting', '--json'], json), 0, json.stderr);
  const result = JSON.parse(json.stdout);
  assert.equal(result.logLikelihood, null); // -∞ has no JSON number
  assert.equal(result.impossible.records, Number(count[1]));
  assert.equal(result.impossible.otherLogLikelihood.toFixed(4), rest[2]);
  // With a prior every record has a probability.
  const laplace = capture();
  assert.equal(
    await main(['learn', bif, '--data', dat, '--method', 'counting', '--prior', 'laplace', '--json'], laplace),
    0,
    laplace.stderr,
  );
  const smoothed = JSON.parse(laplace.stdout);
  assert.equal(smoothed.impossible, undefined);
  assert.ok(Number.isFinite(smoothed.logLikelihood));
});

test('bayes learn: bad input is a one-line error (exit 1) or a usage error (exit 2)', async (t) => {
  const bif = sharedFile('bif', 'asia.bif');
  if (!bif) return t.skip(NO_SHARED);
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'asia,smoke\nyes,maybe\n');
  let io = capture();
  assert.equal(await main(['learn', bif, '--data', bad], io), 1);
  assert.match(io.stderr, /bad\.csv: line 2: 'maybe' is not a state of smoke \(states: yes, no\)/);
  io = capture();
  assert.equal(await main(['learn', bif, '--data', join(dir, 'none.csv')], io), 1);
  assert.match(io.stderr, /cannot read .*none\.csv/);
  io = capture();
  assert.equal(await main(['learn', 'model.bayes', '--data', bad], io), 1);
  assert.match(io.stderr, /cannot read model\.bayes/);
  io = capture();
  assert.equal(await main(['learn', bif, '--data', bad, '--method', 'magic'], io), 2);
  io = capture();
  assert.equal(await main(['learn', bif, '--data', bad, '--prior', 'm=-1'], io), 2);
  assert.match(io.stderr, /--prior must be/);
});

test('bayes structure: hill climbing and K2 print arcs and compare with a reference network', async (t) => {
  const bif = sharedFile('bif', 'earthquake.bif');
  const net = loadBif('earthquake');
  if (!bif || !net) return t.skip(NO_SHARED);
  const csv = join(dir, 'earthquake.csv');
  writeFileSync(csv, toCsv(forwardSample(net, 20000, createRng(8))));
  let io = capture();
  const order = 'Burglary,Earthquake,Alarm,JohnCalls,MaryCalls';
  assert.equal(
    await main(['structure', csv, '--method', 'k2', '--order', order, '--reference', bif, '--json'], io),
    0,
    io.stderr,
  );
  const k2 = JSON.parse(io.stdout);
  assert.deepEqual(k2.comparison, {
    reference: 'earthquake',
    missing: [],
    extra: [],
    reversed: [],
    shd: { cpdag: 0, skeleton: 0 },
    scoreChange: { missing: [], extra: [] },
  });
  assert.equal(k2.arcs.length, 4);
  io = capture();
  assert.equal(
    await main(
      ['structure', csv, '--method', 'hillclimb', '--score', 'bic', '--json', '--out', join(dir, 'hc.bif')],
      io,
    ),
    0,
    io.stderr,
  );
  const hc = JSON.parse(io.stdout);
  assert.ok(Number.isFinite(hc.score) && hc.scoreName === 'bic' && hc.arcs.length >= 3);
  assert.ok('network' in readBif(readFileSync(join(dir, 'hc.bif'), 'utf8')));
  io = capture();
  assert.equal(
    await main(
      [
        'structure',
        csv,
        '--method',
        'tabu',
        '--tabu',
        '5',
        '--restarts',
        '2',
        '--perturb',
        '2',
        '--seed',
        '4',
        '--json',
      ],
      io,
    ),
    0,
    io.stderr,
  );
  const tabu = JSON.parse(io.stdout);
  assert.equal(tabu.method, 'tabu');
  assert.ok(tabu.score >= hc.score - 1e-9, `tabu ${tabu.score} vs hill climbing ${hc.score}`);
  for (const [args, message] of [
    [['--method', 'hillclimb', '--tabu', '3'], /--tabu does not apply to --method hillclimb/],
    [['--method', 'k2', '--restarts', '3'], /--restarts does not apply/],
    [['--method', 'tabu', '--perturb', '0'], /--perturb must be an integer ≥ 1/],
    [['--method', 'greedy'], /k2, hillclimb or tabu/],
  ] as Array<[string[], RegExp]>) {
    io = capture();
    assert.equal(await main(['structure', csv, ...args], io), 2, args.join(' '));
    assert.match(io.stderr, message);
  }
  io = capture();
  assert.equal(
    await main(['structure', csv, '--method', 'k2', '--order', order, '--out', join(dir, 'k2.bayes')], io),
    0,
    io.stderr,
  );
  assert.match(
    readFileSync(join(dir, 'k2.bayes'), 'utf8'),
    /^network learned \{[\s\S]*P\(Alarm \| Burglary, Earthquake\) \{/,
  );
  io = capture();
  assert.equal(await main(['structure', csv, '--method', 'k2', '--order', 'Alarm'], io), 2);
  assert.match(io.stderr, /--order must list all 5 columns/);
  io = capture();
  assert.equal(await main(['structure', csv], io), 2);
});

test("bayes structure --reference: each missing and extra arc with what it adds to its family's score", async (t) => {
  const bif = sharedFile('bif', 'earthquake.bif');
  const net = loadBif('earthquake');
  if (!bif || !net) return t.skip(NO_SHARED);
  // 200 cases (seed 8): K2 misses Earthquake→Alarm and adds Burglary→Earthquake.
  const data = forwardSample(net, 200, createRng(8));
  const csv = join(dir, 'earthquake-200.csv');
  writeFileSync(csv, toCsv(data));
  const order = 'Burglary,Earthquake,Alarm,JohnCalls,MaryCalls';
  let io = capture();
  assert.equal(
    await main(['structure', csv, '--method', 'k2', '--order', order, '--reference', bif, '--json'], io),
    0,
    io.stderr,
  );
  const { comparison } = JSON.parse(io.stdout);
  assert.deepEqual([comparison.missing, comparison.extra], [[['Earthquake', 'Alarm']], [['Burglary', 'Earthquake']]]);
  // Scored from scratch: the true Alarm family with and without Earthquake; Earthquake's learned family with and
  // without Burglary.
  const k2 = { score: 'k2' as const, ess: 1 };
  const [b, e, a] = [0, 1, 2];
  const missing = familyScore(data, a, [b, e], k2) - familyScore(data, a, [b], k2);
  const extra = familyScore(data, e, [b], k2) - familyScore(data, e, [], k2);
  assert.ok(
    Math.abs(comparison.scoreChange.missing[0] - missing) < 1e-9 &&
      Math.abs(comparison.scoreChange.extra[0] - extra) < 1e-9,
  );
  assert.ok(extra > 0, 'K2 only adds an arc that raises the family score');
  io = capture();
  assert.equal(
    await main(['structure', csv, '--method', 'k2', '--order', order, '--reference', bif], io),
    0,
    io.stderr,
  );
  const sign = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  assert.match(
    io.stdout,
    new RegExp(
      `missing Earthquake->Alarm \\(${sign(missing).replace('+', '\\+')}\\); extra Burglary->Earthquake \\(\\+${extra.toFixed(2)}\\)`,
    ),
  );
});

test('bayes mixture: Old Faithful with 2 full components, Mitchell k means on one column, and usage errors', async (t) => {
  const file = sharedFile('tables', 'old-faithful', 'faithful.csv');
  if (!file) return t.skip(NO_SHARED);
  let io = capture();
  assert.equal(
    await main(['mixture', file, '--k', '2', '--json', '--tolerance', '1e-10', '--iterations', '1000'], io),
    0,
    io.stderr,
  );
  const fit = JSON.parse(io.stdout);
  assert.equal(fit.kind, 'mixture');
  assert.deepEqual(fit.dimensions, ['x1', 'x2']);
  assert.equal(fit.responsibilities, undefined);
  // The two eruption regimes: short (~2 min, ~54 min wait) and long (~4.3 min, ~80 min wait).
  const means = [...fit.means].sort((a: number[], b: number[]) => a[0] - b[0]);
  assert.ok(Math.abs(means[0][0] - 2.04) < 0.01 && Math.abs(means[1][1] - 79.97) < 0.05, JSON.stringify(means));
  assert.ok(Math.abs(fit.weights[0] + fit.weights[1] - 1) < 1e-12);
  io = capture();
  assert.equal(
    await main(['mixture', file, '--k', '2', '--columns', 'x2', '--sigma', '6', '--json', '--responsibilities'], io),
    0,
    io.stderr,
  );
  const km = JSON.parse(io.stdout);
  assert.deepEqual(km.weights, [0.5, 0.5]);
  assert.deepEqual(km.covariances, [[[36]], [[36]]]);
  assert.equal(km.responsibilities.length, 272);
  io = capture();
  assert.equal(await main(['mixture', file], io), 2);
  assert.match(io.stderr, /--k K/);
  io = capture();
  assert.equal(await main(['mixture', join(dir, 'none.csv'), '--k', '2'], io), 1);
  assert.match(io.stderr, /no such file/i);
});

test('bayes learn MODEL.bayes: the structure from its tables, its declared priors unless --prior, --network to pick', async () => {
  const model = join(dir, 'coin.bayes');
  writeFileSync(
    model,
    `network Coin {
  variable Side { heads, tails }
  P(Side) ~ Beta(2, 3)
}
network Other {
  variable Side { heads, tails }
  P(Side) = 0.5
}
`,
  );
  const csv = join(dir, 'flips.csv');
  writeFileSync(csv, 'Side\nheads\nheads\nheads\nheads\ntails\n');
  let io = capture();
  assert.equal(await main(['learn', model, '--data', csv, '--network', 'Coin', '--json'], io), 0, io.stderr);
  // Beta(2, 3) pseudo-counts: (4 + 2) / (5 + 5).
  assert.ok(Math.abs(JSON.parse(io.stdout).cpts.Side.rows[0].distribution.heads - 0.6) < 1e-12);
  io = capture();
  assert.equal(
    await main(['learn', model, '--data', csv, '--network', 'Coin', '--prior', 'none', '--json'], io),
    0,
    io.stderr,
  );
  assert.equal(JSON.parse(io.stdout).cpts.Side.rows[0].distribution.heads, 0.8);
  io = capture();
  assert.equal(await main(['learn', model, '--data', csv], io), 1);
  assert.match(io.stderr, /not exactly one network: choose one with --network NAME/);
  writeFileSync(join(dir, 'broken.bayes'), 'network N {\n  P(X) = 2\n}\n');
  io = capture();
  assert.equal(await main(['learn', join(dir, 'broken.bayes'), '--data', csv], io), 1);
  assert.match(io.stderr, /broken\.bayes:2:\d+: error: /);
});

test('bayes mixture --sigma converges as a model does (tolerance 1e-9 with a known σ)', async () => {
  const file = join(dir, 'points.csv');
  writeFileSync(file, 'x\n0.1\n-0.3\n0.2\n4.1\n3.8\n4.3\n');
  const io = capture();
  assert.equal(await main(['mixture', file, '--k', '2', '--sigma', '1', '--json'], io), 0, io.stderr);
  const means = (JSON.parse(io.stdout).means as number[][]).map((m) => m[0]!).sort((a, b) => a - b);
  // The fixed point of Mitchell's known-σ EM (§6.12.1) on these points, iterated to convergence.
  assert.ok(Math.abs(means[0]! - 0.0013712027496544789) < 1e-6, String(means));
  assert.ok(Math.abs(means[1]! - 4.06535333562871) < 1e-6, String(means));
  const help = capture();
  await main(['mixture', '--help'], help);
  assert.match(help.stdout, /default 1e-3, as scikit-learn;\n\s+1e-9 with --sigma/);
});

test("bayes learn --help says EM starts from random CPTs, not NET's numbers (unlike a model's learn)", async () => {
  const io = capture();
  await main(['learn', '--help'], io);
  assert.match(
    io.stdout,
    /--seed S {10}seed of the random starting CPTs of em\/gradient \(default 1\): NET's own numbers are\n/,
  );
  // One EM step from P(A) = 0.5 would give (2 + 0.5) / 4 = 0.625 here; the random start gives another number.
  const file = join(dir, 'start.csv');
  writeFileSync(file, 'A,B\ntrue,x\ntrue,x\n?,y\nfalse,?\n');
  const net = join(dir, 'start.bayes');
  writeFileSync(
    net,
    'variable A : bool\nvariable B { x, y, z }\nP(A) = 0.5\n' +
      'P(B | A) { true: [0.2, 0.3, 0.5], false: [0.2, 0.3, 0.5] }\n',
  );
  const run = capture();
  assert.equal(
    await main(['learn', net, '--data', file, '--method', 'em', '--iterations', '1', '--json'], run),
    0,
    run.stderr,
  );
  const a = JSON.parse(run.stdout).cpts.A.rows[0].distribution.true as number;
  assert.notEqual(a, 0.625);
});
