import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import { readBif } from '../../../server/src/model/bif.js';
import { JunctionTree } from '../../../server/src/engine/inference/junctionTree.js';
import { evidenceOf, loadBif } from '../../support/networks.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';

test('bayes marginals --json prints exact posteriors equal to the junction tree', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!file || !net) return t.skip(NO_SHARED);
  const io = capture();
  assert.equal(
    await main(['marginals', file, '--evidence', 'smoke=yes', '-e', 'xray=yes', '--json'], io),
    0,
    io.stderr,
  );
  const out = JSON.parse(io.stdout);
  assert.equal(out.network, 'asia');
  assert.equal(out.method, 'exact');
  assert.deepEqual(out.evidence, { smoke: 'yes', xray: 'yes' });
  const jt = JunctionTree.compile(net);
  jt.setEvidence(evidenceOf(net, { smoke: 'yes', xray: 'yes' }));
  jt.propagate();
  net.variables.forEach((v, i) =>
    v.states.forEach((s, j) => assert.equal(out.marginals[v.name][s], jt.marginal(i)[j])),
  );
  assert.equal(out.stderr, undefined);
});

test('bayes marginals with a sampler reports standard errors and is reproducible', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  if (!file) return t.skip(NO_SHARED);
  const run = async () => {
    const io = capture();
    assert.equal(
      await main(
        ['marginals', file, '-e', 'dysp=yes', '--method', 'gibbs', '--samples', '4000', '--seed', '3', '--json'],
        io,
      ),
      0,
    );
    // Everything but the wall times (timings) is reproducible.
    const { timings: _, ...rest } = JSON.parse(io.stdout);
    return rest;
  };
  const a = await run();
  assert.equal(a.method, 'gibbs');
  assert.ok(a.stderr.lung.yes > 0 && a.stderr.lung.yes < 0.05);
  assert.deepEqual(a, await run());
});

test('bayes marginals --method rejection: acceptance rate near P(evidence), marginals within 4 standard errors, seeded', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!file || !net) return t.skip(NO_SHARED);
  const run = async () => {
    const io = capture();
    assert.equal(
      await main(
        ['marginals', file, '-e', 'dysp=yes', '--method', 'rejection', '--samples', '20000', '--seed', '3', '--json'],
        io,
      ),
      0,
      io.stderr,
    );
    const { timings: _, ...rest } = JSON.parse(io.stdout); // wall times differ between runs
    return rest;
  };
  const a = await run();
  assert.equal(a.method, 'rejection');
  // Every method says why it ran; rejection's JSON had no reason at all.
  assert.equal(a.reason, 'rejection: asked for');
  const jt = JunctionTree.compile(net);
  jt.setEvidence(evidenceOf(net, { dysp: 'yes' }));
  jt.propagate();
  const pEvidence = Math.exp(jt.logEvidence);
  assert.ok(Math.abs(a.acceptanceRate - pEvidence) < 4 * a.acceptanceStderr, `${a.acceptanceRate} vs ${pEvidence}`);
  assert.equal(a.accepted, Math.round(a.acceptanceRate * 20000));
  const lung = net.variables.findIndex((v) => v.name === 'lung');
  assert.ok(Math.abs(a.marginals.lung.yes - jt.marginal(lung)[0]!) < 4 * a.stderr.lung.yes);
  assert.deepEqual(a, await run());
  const text = capture();
  assert.equal(
    await main(
      ['marginals', file, '-e', 'dysp=yes', '--method', 'rejection', '--samples', '20000', '--seed', '3'],
      text,
    ),
    0,
  );
  assert.match(
    text.stdout,
    new RegExp(`^accepted ${a.accepted} of 20000 samples: acceptance rate ${a.acceptanceRate.toFixed(6)} ±`, 'm'),
  );
});

test('bayes marginals reports bad evidence and bad options clearly', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  if (!file) return t.skip(NO_SHARED);
  let io = capture();
  assert.equal(await main(['marginals', file, '-e', 'smoke=maybe'], io), 1);
  assert.match(io.stderr, /'maybe' is not a state of 'smoke' \(states: yes, no\)/);
  io = capture();
  assert.equal(await main(['marginals', file, '-e', 'smoke'], io), 2);
  assert.match(io.stderr, /--evidence wants VAR=STATE/);
  io = capture();
  assert.equal(await main(['marginals', file, '--method', 'magic'], io), 2);
  io = capture();
  assert.equal(await main(['marginals', file, '--budget', '1', '--samples', '100'], io), 0);
  assert.match(io.stderr, /warning: exact inference needs a clique table of \d+ entries, over the budget of 1/);
});

test('bayes convert round-trips BIF → BIF and writes .bayes with quoted state names', async (t) => {
  const file = sharedFile('bif', 'child.bif');
  const net = loadBif('child');
  if (!file || !net) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-convert-'));
  try {
    const io = capture();
    assert.equal(await main(['convert', file, join(dir, 'child.bif')], io), 0, io.stderr);
    const back = readBif(readFileSync(join(dir, 'child.bif'), 'utf8'));
    assert.ok('network' in back);
    assert.deepEqual(back.network.variables, net.variables);
    back.network.cpts.forEach((c, i) => {
      assert.deepEqual(c.parents, net.cpts[i]!.parents);
      assert.deepEqual(c.table, net.cpts[i]!.table);
    });
    assert.equal(await main(['convert', file, join(dir, 'child.bayes')], io), 0, io.stderr);
    const text = readFileSync(join(dir, 'child.bayes'), 'utf8');
    assert.match(text, /^network child \{/);
    assert.match(text, /variable Age \{ "0-3_days", "4-10_days", "11-30_days" \}/);
    assert.match(text, /P\(BirthAsphyxia\) \{ yes: 0\.1, no: 0\.9 \}/);
    // One row per parent assignment of every CPT.
    const rows = text.split('\n').filter((l) => /^ {4}\S.*: \{/.test(l)).length;
    const expected = net.cpts
      .filter((c) => c.parents.length)
      .reduce((n, c) => n + c.table.length / net.variables[c.child]!.states.length, 0);
    assert.equal(rows, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes convert refuses unknown extensions and unreadable input', async () => {
  let io = capture();
  assert.equal(await main(['convert', 'a.bif', 'b.txt'], io), 2);
  assert.match(io.stderr, /cannot write 'b\.txt': write \.bayes, BIF \(\.bif\), XMLBIF \(\.xml, \.xmlbif\), Hugin NET/);
  io = capture();
  assert.equal(await main(['convert', 'a.txt', 'b.bif'], io), 1);
  assert.match(io.stderr, /networks are read from \.bayes, BIF \(\.bif\), XMLBIF \(\.xml, \.xmlbif\), Hugin NET/);
  io = capture();
  assert.equal(await main(['convert', 'no-such-model.bayes', 'b.bif'], io), 1);
  assert.match(io.stderr, /cannot read no-such-model\.bayes/);
});

test('bayes convert: an influence diagram is written as its probability network, as --help says', async () => {
  const help = capture();
  await main(['convert', '--help'], help);
  assert.match(help.stdout, /a decision\nbecomes a chance variable with a uniform table and utilities are left out/);
  const { file: model } = tempFile(
    'id.bayes',
    'variable Oil { dry, wet }\ndecision Drill { yes, no }\nP(Oil) { dry: 0.5, wet: 0.5 }\n' +
      'utility U(Drill, Oil) { yes, dry: -70, yes, wet: 50, no, dry: 0, no, wet: 0 }\n',
  );
  const io = capture();
  assert.equal(await main(['convert', model, '-'], io), 0, io.stderr);
  assert.match(io.stdout, /P\(Drill\) \{ yes: 0\.5, no: 0\.5 \}/);
  assert.doesNotMatch(io.stdout, /utility|decision/);
});

test('bayes marginals and convert refuse a variable given two different states or vectors', async () => {
  // The options were collected into a record, so the last of `-e A=t -e A=f` was answered alone.
  const { file, dir } = tempFile(
    'ab.bif',
    'network ab {}\nvariable A { type discrete [ 2 ] { t, f }; }\nvariable B { type discrete [ 2 ] { t, f }; }\n' +
      'probability ( A ) { table 0.3, 0.7; }\nprobability ( B | A ) { (t) 0.9, 0.1; (f) 0.2, 0.8; }\n',
  );
  try {
    let io = capture();
    assert.equal(await main(['marginals', file, '-e', 'A=t', '-e', 'A=f'], io), 2);
    assert.match(io.stderr, /--evidence gives 'A' twice \(t, then f\): observe a variable once/);
    assert.equal(io.stdout, '');
    for (const option of ['--soft', '--likelihood']) {
      io = capture();
      assert.equal(await main(['marginals', file, option, 'A=0.5,0.5', option, 'A=1,0'], io), 2);
      assert.match(io.stderr, new RegExp(`${option} gives 'A' twice: give one vector per variable`));
    }
    io = capture();
    assert.equal(await main(['convert', file, join(dir, 'ab.uai'), '-e', 'A=t', '-e', 'A=f'], io), 2);
    assert.match(io.stderr, /--evidence gives 'A' twice/);
    // The same observation twice is one observation: P(B = t | A = t) = 0.9.
    io = capture();
    assert.equal(await main(['marginals', file, '-e', 'A=t', '-e', 'A=t', '--json'], io), 0, io.stderr);
    assert.equal((JSON.parse(io.stdout) as { marginals: { B: { t: number } } }).marginals.B.t, 0.9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes marginals --json reports timings: parse, triangulate, compile, propagate, within the whole run', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  if (!file) return t.skip(NO_SHARED);
  for (const method of ['exact', 'gibbs']) {
    const io = capture();
    const start = performance.now();
    const args: string[] = ['marginals', file, '-e', 'smoke=yes', '--method', method, '--samples', '500', '--json'];
    assert.equal(await main(args, io), 0, io.stderr);
    const whole = performance.now() - start;
    const { timings } = JSON.parse(io.stdout) as { timings: Record<string, number> };
    assert.deepEqual(Object.keys(timings).sort(), ['compile', 'parse', 'propagate', 'triangulate']);
    for (const [stage, ms] of Object.entries(timings)) {
      assert.ok(typeof ms === 'number' && Number.isFinite(ms) && ms >= 0, `${method} ${stage}: ${ms}`);
    }
    const sum = Object.values(timings).reduce((a, b) => a + b, 0);
    assert.ok(sum <= whole, `${method}: the stages (${sum} ms) within the whole run (${whole} ms)`);
  }
});
