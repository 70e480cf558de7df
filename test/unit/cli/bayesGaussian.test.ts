/**
 * `.bayes` models with continuous variables (`variable X : real`, `P(X | …) ~ Normal(…)`) through
 * the language: `bayes marginals` against closed forms and the numpy oracle, `bayes convert` to
 * Hugin NET and back through the NET reader with the same answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import type { HybridNetwork } from '../../../server/src/engine/gaussian/hybridNetwork.js';
import { readHuginHybrid, writeHuginHybrid } from '../../../server/src/model/hugin.js';
import { capture, tempFile } from '../../support/cli.js';
import { numpyOracle, randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { pythonMissing } from '../../support/python.js';

const close = (a: number, b: number, what: string, tol = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

interface Answer {
  logEvidence: number;
  marginals: Record<string, { mean: number; variance: number }>;
}

async function marginals(file: string, args: string[]): Promise<Answer> {
  const io = capture();
  assert.equal(await main(['marginals', file, ...args, '--json'], io), 0, io.stderr);
  return JSON.parse(io.stdout) as Answer;
}

const chain = `network G {
  variable X, Y : real
  P(X) ~ Normal(mean: 0, variance: 1)
  P(Y | X) ~ Normal(mean: 0, X: 1, variance: 1)
}
`;

test('X ~ N(0,1), Y | X ~ N(X,1): P(X | Y = y) = N(y/2, 1/2), Y ~ N(0, 2)', async () => {
  const { file, dir } = tempFile('chain.bayes', chain);
  try {
    for (const y of [3, -1.25]) {
      const out = await marginals(file, ['--network', 'G', `--evidence=Y=${y}`]);
      close(out.marginals.X!.mean, y / 2, 'mean X');
      close(out.marginals.X!.variance, 0.5, 'variance X');
      close(out.logEvidence, -0.5 * Math.log(2 * Math.PI * 2) - (y * y) / 4, 'log density of Y');
    }
    const prior = await marginals(file, []); // the file's only network
    close(prior.marginals.Y!.mean, 0, 'mean Y');
    close(prior.marginals.Y!.variance, 2, 'variance Y');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes convert MODEL.bayes out.net: the NET file gives the same marginals', async () => {
  const { file, dir } = tempFile('chain.bayes', chain);
  try {
    const net = join(dir, 'chain.net');
    const io = capture();
    assert.equal(await main(['convert', file, '--network', 'G', net], io), 0, io.stderr);
    const read = readHuginHybrid(readFileSync(net, 'utf8'));
    assert.ok('hybrid' in read, JSON.stringify(read));
    const fromBayes = await marginals(file, ['--evidence=Y=2']);
    const fromNet = await marginals(net, ['--evidence=Y=2']);
    assert.deepEqual(fromNet.marginals, fromBayes.marginals);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A Gaussian network (no discrete variables) written as `.bayes` text. */
function bayesText(net: HybridNetwork): string {
  const lines = [`network ${net.name} {`, `  variable ${net.variables.map((v) => v.name).join(', ')} : real`];
  for (const c of net.cpds) {
    assert.equal(c.kind, 'gaussian');
    if (c.kind !== 'gaussian') continue;
    const cpd = c.cpd;
    const parents = cpd.continuousParents.map((p) => net.variables[p]!.name);
    const given = parents.length ? ` | ${parents.join(', ')}` : '';
    const coefficients = parents.map((p, j) => `, ${p}: ${cpd.coefficients[j]}`).join('');
    lines.push(
      `  P(${net.variables[cpd.child]!.name}${given}) ~ Normal(mean: ${cpd.intercepts[0]}${coefficients}, variance: ${cpd.variances[0]})`,
    );
  }
  return lines.join('\n') + '\n}\n';
}

test('a random Gaussian network written in the language: marginals equal to numpy', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const net = randomHybridNetwork({ continuous: 7, discrete: 0, seed: 5 });
  const { file, dir } = tempFile('gauss.bayes', bayesText(net));
  try {
    const evidence = sampledEvidence(net, [2, 5], 3);
    const args = [...evidence.continuous].map(([v, x]) => `--evidence=${net.variables[v]!.name}=${x}`);
    const out = await marginals(file, args);
    const oracle = numpyOracle(net, evidence);
    close(out.logEvidence, oracle.logEvidence, 'logEvidence', 1e-8);
    net.variables.forEach((v, i) => {
      close(out.marginals[v.name]!.mean, oracle.posteriors[i]![0]!, `mean ${v.name}`, 1e-8);
      close(out.marginals[v.name]!.variance, oracle.posteriors[i]![1]!, `variance ${v.name}`, 1e-8);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('examples/data/gaussian.bayes: Height | Weight = 80 as the bivariate normal gives it', async () => {
  const out = await marginals('examples/data/gaussian.bayes', ['--evidence=Weight=80']);
  // Σ = [[49, 24.5], [24.5, 16.25]], μ = (170, 75).
  close(out.marginals.Height!.mean, 170 + (24.5 / 16.25) * 5, 'mean Height');
  close(out.marginals.Height!.variance, 49 - (24.5 * 24.5) / 16.25, 'variance Height');
  close(out.logEvidence, -0.5 * Math.log(2 * Math.PI * 16.25) - 25 / (2 * 16.25), 'log density of Weight = 80');
});

test('NET → .bayes → NET: a Gaussian network with discrete variables beside it, numbers unchanged', async () => {
  const net = randomHybridNetwork({ continuous: 6, discrete: 0, seed: 21 });
  net.variables.push({ kind: 'discrete', name: 'Season', states: ['wet', 'dry'] });
  net.cpds.push({ kind: 'discrete', cpt: { child: 6, parents: [], table: Float64Array.of(0.1 + 1e-17 * 3, 0.9) } });
  const { file, dir } = tempFile('g.net', writeHuginHybrid(net));
  try {
    const bayes = join(dir, 'g.bayes');
    const back = join(dir, 'back.net');
    for (const [from, to] of [
      [file, bayes],
      [bayes, back],
    ] as const) {
      const io = capture();
      assert.equal(await main(['convert', from, to], io), 0, io.stderr);
    }
    assert.match(readFileSync(bayes, 'utf8'), /~ Normal\(mean: /);
    const a = readHuginHybrid(readFileSync(file, 'utf8'));
    const b = readHuginHybrid(readFileSync(back, 'utf8'));
    assert.ok('hybrid' in a && 'hybrid' in b);
    // The same numbers, bit for bit (variables may come back in another order).
    const byName = (n: HybridNetwork) => new Map(n.variables.map((v, i) => [v.name, n.cpds[i]!]));
    const [x, y] = [byName(a.hybrid), byName(b.hybrid)];
    assert.equal(y.size, x.size);
    for (const [name, cpd] of x) {
      const other = y.get(name)!;
      assert.equal(other.kind, cpd.kind, name);
      if (cpd.kind === 'gaussian' && other.kind === 'gaussian') {
        assert.deepEqual(other.cpd.intercepts, cpd.cpd.intercepts, name);
        assert.deepEqual(other.cpd.coefficients, cpd.cpd.coefficients, name);
        assert.deepEqual(other.cpd.variances, cpd.cpd.variances, name);
      } else if (cpd.kind === 'discrete' && other.kind === 'discrete') assert.deepEqual(other.cpt.table, cpd.cpt.table);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
