import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { forwardBackward } from '../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../server/src/engine/dynamic/viterbi.js';
import { createRng } from '../../../server/src/engine/random.js';
import { capture, tempFile } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';
import { sampleFindings, randomTwoSlice, twoSliceText } from '../../support/dynamicNetworks.js';

const umbrella = join(repoRoot, 'examples', 'umbrella.bayes');
const umbrellaCsv = join(repoRoot, 'examples', 'data', 'umbrella.csv');

test("bayes filter --json: the umbrella world's filtering 0.818, 0.883 and smoothing 0.883", async () => {
  const io = capture();
  const code = await main(
    ['filter', umbrella, '--network', 'Umbrella', '--observations', umbrellaCsv, '--json', '--predict', '2'],
    io,
  );
  assert.equal(code, 0, io.stderr);
  const out = JSON.parse(io.stdout);
  assert.equal(out.steps.length, 2);
  assert.equal(out.steps[0].t, 1);
  assert.equal(out.steps[0].filtered.Rain.yes.toFixed(3), '0.818');
  assert.equal(out.steps[1].filtered.Rain.yes.toFixed(3), '0.883');
  assert.equal(out.steps[0].smoothed.Rain.yes.toFixed(3), '0.883');
  assert.deepEqual(out.mostLikely, [
    { Rain: 'yes', Umbrella: 'yes' },
    { Rain: 'yes', Umbrella: 'yes' },
  ]);
  // P(u1, u2) = Σ over the rain of both days, by hand: 0.5·(0.9·0.7 + 0.2·0.3)… as the product of the steps.
  const p1 = 0.5 * 0.9 + 0.5 * 0.2; // P(u1) = 0.55 (R1 is uniform)
  const r1 = (0.5 * 0.9) / p1;
  const rain2 = r1 * 0.7 + (1 - r1) * 0.3;
  const p2 = rain2 * 0.9 + (1 - rain2) * 0.2;
  assert.ok(Math.abs(out.logLikelihood - Math.log(p1 * p2)) < 1e-12);
  assert.deepEqual(
    out.predicted.map((p: { t: number }) => p.t),
    [3, 4],
  );
  const r3 = out.steps[1].filtered.Rain.yes * 0.7 + out.steps[1].filtered.Rain.no * 0.3;
  assert.ok(Math.abs(out.predicted[0].Rain.yes - r3) < 1e-12);
  const text = capture();
  assert.equal(await main(['filter', umbrella, '--network', 'Umbrella', '--observations', umbrellaCsv], text), 0);
  assert.match(text.stdout, /filtered yes 0\.8182/);
});

test('bayes filter on a random network over time equals the engine, and the unrolled BIF gives the same smoothed marginals', async () => {
  const dbn = randomTwoSlice(11, 4, 2, 1);
  dbn.name = 'Random';
  const { file, dir } = tempFile('random.bayes', twoSliceText(dbn));
  const T = 5;
  const findings = sampleFindings(createRng(3), dbn, T, [2, 3]);
  // Step 3 misses V2 and step 4 everything: `?` and empty cells.
  findings[2] = { evidence: new Map([...findings[2]!.evidence].filter(([v]) => v !== 2)) };
  findings[3] = { evidence: new Map() };
  const rows = findings.map((f) =>
    [2, 3]
      .map((v) => (f.evidence.has(v) ? dbn.variables[v]!.states[f.evidence.get(v)!] : v === 2 ? '?' : ''))
      .join(','),
  );
  const csv = join(dir, 'obs.csv');
  writeFileSync(csv, ['V2,V3', ...rows].join('\n') + '\n');
  const io = capture();
  assert.equal(await main(['filter', file, '--network', 'Random', '--observations', csv, '--json'], io), 0, io.stderr);
  const out = JSON.parse(io.stdout);
  const r = forwardBackward(dbn, findings, { smooth: true });
  const ml = mostLikelySequence(dbn, findings);
  assert.ok(Math.abs(out.logLikelihood - r.logLikelihood) < 1e-9);
  out.steps.forEach(
    (
      s: { filtered: Record<string, Record<string, number>>; smoothed: Record<string, Record<string, number>> },
      i: number,
    ) =>
      dbn.variables.forEach((v, j) =>
        v.states.forEach((st, x) => {
          assert.ok(Math.abs(s.filtered[v.name]![st]! - r.filtered[i]![j]![x]!) < 1e-9);
          assert.ok(Math.abs(s.smoothed[v.name]![st]! - r.smoothed![i]![j]![x]!) < 1e-9);
        }),
      ),
  );
  assert.deepEqual(
    out.mostLikely,
    ml.states.slice(1).map((x) => Object.fromEntries(dbn.variables.map((v, j) => [v.name, v.states[x[j]!]]))),
  );
  const bif = join(dir, 'unrolled.bif');
  const conv = capture();
  assert.equal(await main(['convert', file, '--network', 'Random', '--unroll', String(T), bif], conv), 0, conv.stderr);
  const evidence = findings.flatMap((f, i) =>
    [...f.evidence].map(([v, s]) => ['-e', `${dbn.variables[v]!.name}_${i + 1}=${dbn.variables[v]!.states[s]}`]).flat(),
  );
  const marg = capture();
  assert.equal(await main(['marginals', bif, '--json', '--method', 'exact', ...evidence], marg), 0, marg.stderr);
  const exact = JSON.parse(marg.stdout);
  let worst = 0;
  out.steps.forEach((s: { smoothed: Record<string, Record<string, number>> }, i: number) =>
    dbn.variables.forEach((v) =>
      v.states.forEach(
        (st) =>
          (worst = Math.max(worst, Math.abs(s.smoothed[v.name]![st]! - exact.marginals[`${v.name}_${i + 1}`][st]))),
      ),
    ),
  );
  assert.ok(worst < 1e-9, `unrolled vs filter: ${worst}`);
  assert.ok(Math.abs(exact.logEvidence - out.logLikelihood) < 1e-9);
});

test('bayes filter: bad observations are file:line:col errors, bad usage exit 2', async () => {
  const { dir } = tempFile('x.txt', '');
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'Umbrella\nyes\nmaybe\n');
  const io = capture();
  assert.equal(await main(['filter', umbrella, '--network', 'Umbrella', '--observations', bad], io), 1);
  assert.equal(io.stderr, `${bad}:3:1: error: 'maybe' is not a state of Umbrella (yes, no)\n`);
  writeFileSync(bad, 'Rain,Wind\nyes,no\n');
  const col = capture();
  assert.equal(await main(['filter', umbrella, '--network', 'Umbrella', '--observations', bad], col), 1);
  assert.match(col.stderr, /bad\.csv:1:6: error: 'Wind' is not a variable of the network/);
  const usage = capture();
  assert.equal(await main(['filter', umbrella, '--observations', bad], usage), 2);
  assert.match(usage.stderr, /--network N/);
  const plain = capture();
  const { file } = tempFile('plain.bayes', 'network N {\n  variable A { x, y }\n  P(A) { x: 0.5, y: 0.5 }\n}\n');
  assert.equal(await main(['filter', file, '--network', 'N', '--observations', umbrellaCsv], plain), 1);
  assert.match(plain.stderr, /'N' is not a network over time/);
  const impossible = capture();
  writeFileSync(bad, 'Umbrella\nyes\n');
  const lik = await main(
    ['filter', umbrella, '--network', 'Umbrella', '--observations', bad, '--likelihood', '1:Rain=0,0'],
    impossible,
  );
  assert.equal(lik, 1);
  assert.match(impossible.stderr, /not all 0/);
});

test('bayes learn on a network over time: EM on sequences (a `sequence` column), monotone, the result a model that checks', async () => {
  const rng = createRng(9);
  const lines = ['sequence,Umbrella'];
  for (let s = 0; s < 4; s++) {
    let rain = rng.next() < 0.5;
    for (let t = 0; t < 30; t++) {
      rain = rng.next() < (rain ? 0.7 : 0.3);
      lines.push(`${s},${rng.next() < (rain ? 0.9 : 0.2) ? 'yes' : t % 9 === 4 ? '?' : 'no'}`);
    }
  }
  const { file: data, dir } = tempFile('seqs.csv', lines.join('\n') + '\n');
  const out = join(dir, 'learnt.bayes');
  const io = capture();
  const args = ['learn', umbrella, '--network', 'Umbrella', '--data', data, '--seed', '4', '--out', out, '--json'];
  assert.equal(await main(args, io), 0, io.stderr);
  const r = JSON.parse(io.stdout);
  assert.equal(r.sequences, 4);
  for (let i = 1; i < r.logLikelihoods.length; i++) assert.ok(r.logLikelihoods[i] >= r.logLikelihoods[i - 1] - 1e-9);
  const again = capture();
  assert.equal(
    await main(['learn', umbrella, '--network', 'Umbrella', '--data', data, '--seed', '4', '--json'], again),
    0,
  );
  assert.equal(JSON.parse(again.stdout).logLikelihood, r.logLikelihood, 'the same seed gives the same numbers');
  const check = capture();
  assert.equal(await main(['check', out], check), 0, check.stderr);
  // The learnt model's log-likelihood of the data, by bayes filter per sequence, sums to EM's.
  let total = 0;
  for (let s = 0; s < 4; s++) {
    const csv = join(dir, `s${s}.csv`);
    writeFileSync(
      csv,
      ['Umbrella', ...lines.slice(1 + 30 * s, 31 + 30 * s).map((l) => l.split(',')[1])].join('\n') + '\n',
    );
    const f = capture();
    assert.equal(await main(['filter', out, '--network', 'Umbrella', '--observations', csv, '--json'], f), 0, f.stderr);
    total += JSON.parse(f.stdout).logLikelihood;
  }
  assert.ok(Math.abs(total - r.logLikelihood) < 1e-6 * Math.abs(total), `${total} vs ${r.logLikelihood}`);
});
