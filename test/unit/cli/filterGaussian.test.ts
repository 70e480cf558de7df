import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { repoRoot } from '../../support/shared.js';
import {
  gaussianTwoSliceText,
  oracleInput,
  randomGaussianTwoSlice,
  sampleGaussianSequence,
  gaussianModelFiles,
} from '../../support/gaussianTwoSlice.js';

const SCRIPT = readFileSync(join(repoRoot, 'test', 'support', 'numpyKalman.py'), 'utf8');

type Moments = Record<string, { mean: number; variance: number }>;

function close(a: number, b: number, what: string) {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

test('bayes filter --json on a Gaussian network over time written as text: filtered, smoothed, mostLikely, predicted and logLikelihood equal the unrolled joint Gaussian (numpy)', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  for (const [seed, n, T] of [
    [31, 3, 6],
    [32, 5, 4],
  ] as const) {
    const net = randomGaussianTwoSlice(seed, n);
    const observations = sampleGaussianSequence(seed, net, T, 0.5);
    const { file, csv } = gaussianModelFiles(net, observations);
    const io = capture();
    const code = await main(
      ['filter', file, '--network', net.name, '--observations', csv, '--json', '--predict', '2'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const out = JSON.parse(io.stdout) as {
      method: string;
      steps: { t: number; filtered: Moments; smoothed: Moments }[];
      mostLikely: Record<string, number>[];
      predicted: ({ t: number } & Moments)[];
      logLikelihood: number;
    };
    const peer = runPython<{ brute: Record<string, number[][]> & { logLikelihood: number } }>(
      SCRIPT,
      oracleInput(net, observations, { predict: 2, brute: true }),
    ).brute;
    assert.equal(out.method, 'exact');
    assert.deepEqual(
      out.steps.map((s) => s.t),
      Array.from({ length: T }, (_, i) => i + 1),
    );
    out.steps.forEach((s, i) =>
      net.variables.forEach((v, j) => {
        close(s.filtered[v]!.mean, peer.filteredMeans![i]![j]!, `filtered mean ${v}[${i + 1}]`);
        close(s.filtered[v]!.variance, peer.filteredVariances![i]![j]!, `filtered variance ${v}[${i + 1}]`);
        close(s.smoothed[v]!.mean, peer.smoothedMeans![i]![j]!, `smoothed mean ${v}[${i + 1}]`);
        close(s.smoothed[v]!.variance, peer.smoothedVariances![i]![j]!, `smoothed variance ${v}[${i + 1}]`);
        close(out.mostLikely[i]![v]!, peer.mostLikely![i]![j]!, `most likely ${v}[${i + 1}]`);
        // An observed variable is its reading, with variance 0.
        if (observations[i]!.has(j)) assert.deepEqual(s.filtered[v], { mean: observations[i]!.get(j), variance: 0 });
      }),
    );
    assert.deepEqual(
      out.predicted.map((p) => p.t),
      [T + 1, T + 2],
    );
    out.predicted.forEach((p, k) =>
      net.variables.forEach((v, j) => {
        const m = p[v] as { mean: number; variance: number };
        close(m.mean, peer.predictedMeans![k]![j]!, `predicted mean ${v}[${T + k + 1}]`);
        close(m.variance, peer.predictedVariances![k]![j]!, `predicted variance ${v}[${T + k + 1}]`);
      }),
    );
    close(out.logLikelihood, peer.logLikelihood, 'log-likelihood');
    const text = capture();
    assert.equal(await main(['filter', file, '--network', net.name, '--observations', csv], text), 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${net.name}: ${T} steps, log-likelihood -?\\d+\\.\\d{6} \\(mean ± sd\\)`));
  }
});

test('bayes filter on a Gaussian network over time: bad cells, unknown columns and discrete-only options are errors with their place (exit 1)', async () => {
  const net = randomGaussianTwoSlice(40, 2);
  const { dir, file } = tempFile('model.bayes', gaussianTwoSliceText(net));
  const run = async (csv: string, extra: string[] = []) => {
    const path = join(dir, 'obs.csv');
    writeFileSync(path, csv);
    const io = capture();
    const code = await main(['filter', file, '--network', net.name, '--observations', path, ...extra], io);
    return { code, err: io.stderr.replace(path, 'obs.csv') };
  };
  assert.deepEqual(await run('X0,X1\n1,2\n3,abc\n'), {
    code: 1,
    err: "obs.csv:3:3: error: 'abc' is not a number (X1 is real)\n",
  });
  assert.deepEqual(await run('X0,Speed\n1,2\n'), {
    code: 1,
    err: "obs.csv:1:4: error: 'Speed' is not a variable of the network (X0, X1)\n",
  });
  assert.deepEqual(await run('X0\n'), {
    code: 1,
    err: 'obs.csv:2:1: error: no steps: one row per step follows the header\n',
  });
  const soft = await run('X0\n1\n', ['--soft', '1:X0=0.5,0.5']);
  assert.equal(soft.code, 2);
  assert.match(soft.err, /--soft is for discrete networks over time; 'G40' has real variables/);
  // Missing readings: '?' and empty cells.
  const ok = await run('X0,X1\n?,\n1.5,?\n', ['--json']);
  assert.equal(ok.code, 0, ok.err);
});

test("bayes convert --unroll of a Gaussian network over time writes Hugin NET continuous nodes X_t whose posterior given the readings (bayes marginals) is bayes filter's smoothed answer; BIF is refused in words", async () => {
  const net = randomGaussianTwoSlice(41, 3);
  const T = 4;
  const observations = sampleGaussianSequence(41, net, T, 0.5);
  const { dir, file, csv } = gaussianModelFiles(net, observations);
  const filtered = capture();
  assert.equal(await main(['filter', file, '--network', net.name, '--observations', csv, '--json'], filtered), 0);
  const smoothed = (JSON.parse(filtered.stdout) as { steps: { smoothed: Moments }[] }).steps.map((s) => s.smoothed);
  const out = join(dir, 'unrolled.net');
  const io = capture();
  assert.equal(await main(['convert', file, '--network', net.name, '--unroll', String(T), out], io), 0, io.stderr);
  const evidence = observations.flatMap((o, t) =>
    [...o].flatMap(([v, x]) => ['-e', `${net.variables[v]}_${t + 1}=${x}`]),
  );
  const marginals = capture();
  assert.equal(await main(['marginals', out, ...evidence, '--json'], marginals), 0, marginals.stderr);
  const posterior = (JSON.parse(marginals.stdout) as { marginals: Moments }).marginals;
  for (let t = 1; t <= T; t++)
    for (const v of net.variables) {
      if (observations[t - 1]!.has(net.variables.indexOf(v))) continue;
      close(posterior[`${v}_${t}`]!.mean, smoothed[t - 1]![v]!.mean, `${v}_${t} mean`);
      close(posterior[`${v}_${t}`]!.variance, smoothed[t - 1]![v]!.variance, `${v}_${t} variance`);
    }
  const bif = capture();
  assert.equal(await main(['convert', file, '--network', net.name, '--unroll', '2', join(dir, 'out.bif')], bif), 1);
  assert.match(
    bif.stderr,
    /G41 has continuous nodes \(X0_0, X1_0, X2_0, …\), which BIF cannot hold: write Hugin NET \(\.net\) or \.bayes/,
  );
});
