import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { readHuginHybrid, writeHuginHybrid } from '../../../server/src/model/hugin.js';
import { capture, tempFile } from '../../support/cli.js';
import { numpyOracle, randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { pythonMissing } from '../../support/python.js';

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

interface Continuous {
  mean: number;
  variance: number;
  components?: { weight: number; mean: number; variance: number }[];
}

test('bayes marginals on a CLG .net file: discrete and continuous evidence, equal to numpy', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const net = randomHybridNetwork({ continuous: 6, discrete: 3, seed: 11 });
  const { file, dir } = tempFile('clg.net', writeHuginHybrid(net));
  try {
    const evidence = sampledEvidence(net, [0, 4, 7], 5);
    const args = [
      ...[...evidence.discrete].map(([v, s]) => `--evidence=${net.variables[v]!.name}=s${s}`),
      ...[...evidence.continuous].map(([v, x]) => `--evidence=${net.variables[v]!.name}=${x}`),
    ];
    const io = capture();
    assert.equal(await main(['marginals', file, ...args, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout) as {
      logEvidence: number;
      marginals: Record<string, Record<string, number> | Continuous>;
    };
    const oracle = numpyOracle(net, evidence);
    close(out.logEvidence, oracle.logEvidence, 'logEvidence');
    net.variables.forEach((v, i) => {
      const got = out.marginals[v.name]!;
      if (v.kind === 'discrete')
        v.states.forEach((s, k) =>
          close((got as Record<string, number>)[s]!, oracle.posteriors[i]![k]!, `${v.name}=${s}`),
        );
      else {
        const c = got as Continuous;
        close(c.mean, oracle.posteriors[i]![0]!, `mean ${v.name}`);
        close(c.variance, oracle.posteriors[i]![1]!, `variance ${v.name}`);
        assert.ok(c.components && c.components.length >= 1);
      }
    });
    const text = capture();
    assert.equal(await main(['marginals', file, ...args], text), 0);
    assert.match(text.stdout, /log density of the evidence: -?\d+\.\d{6}/);
    assert.match(text.stdout, /X1 \(observed\): mean 0?-?\d/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('bayes marginals on a Gaussian .net file: {mean, variance} only, and the closed form', async () => {
  const text = `continuous node X { }
continuous node Y { }
potential (X) { data = ( normal ( 0, 1 ) ); }
potential (Y | X) { data = ( normal ( X, 1 ) ); }
`;
  const { file, dir } = tempFile('pair.net', text);
  try {
    const io = capture();
    assert.equal(await main(['marginals', file, '-e', 'Y=3', '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout) as {
      evidence: unknown;
      marginals: Record<string, Continuous>;
      mostProbable: Record<string, number>;
    };
    assert.deepEqual(out.evidence, { Y: 3 });
    assert.deepEqual(Object.keys(out.marginals.X!), ['mean', 'variance']);
    close(out.marginals.X!.mean, 1.5, 'E[X | Y=3]');
    close(out.marginals.X!.variance, 0.5, 'Var[X | Y=3]');
    close(out.mostProbable.X!, 1.5, 'MPE');
    for (const [args, message] of [
      [['-e', 'Y=big'], /'Y' is continuous: observe it as a number/],
      [['-e', 'Q=1'], /unknown variable 'Q'/],
      [['--method', 'gibbs'], /--method gibbs is not available for networks with continuous nodes/],
    ] as const) {
      const bad = capture();
      assert.equal(await main(['marginals', file, ...args], bad), 1);
      assert.match(bad.stderr, message);
    }
    const broken = tempFile('broken.net', text.replace('normal ( X, 1 )', 'normal ( X, -1 )'));
    const err = capture();
    assert.equal(await main(['marginals', broken.file], err), 1);
    assert.match(err.stderr, /broken\.net:4:1: error: the variance of 'Y' must be > 0/);
    rmSync(broken.dir, { recursive: true });
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("examples/data/waste.net (Lauritzen's waste incinerator): bayes marginals equals numpy's enumeration", async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const file = 'examples/data/waste.net';
  const read = readHuginHybrid(readFileSync(file, 'utf8'));
  assert.ok('hybrid' in read);
  const net = read.hybrid;
  const index = (name: string) => net.variables.findIndex((v) => v.name === name);
  const evidence = {
    discrete: new Map([[index('B'), 1]]),
    continuous: new Map([
      [index('C'), -0.9],
      [index('L'), 1.1],
      [index('Mout'), 3.5],
    ]),
  };
  const io = capture();
  const args = ['-e', 'B=unstable', '-e', 'C=-0.9', '-e', 'L=1.1', '-e', 'Mout=3.5', '--json'];
  assert.equal(await main(['marginals', file, ...args], io), 0, io.stderr);
  const out = JSON.parse(io.stdout) as {
    logEvidence: number;
    marginals: Record<string, Record<string, number> | Continuous>;
  };
  const oracle = numpyOracle(net, evidence);
  close(out.logEvidence, oracle.logEvidence, 'logEvidence');
  close((out.marginals.F as Record<string, number>).defect!, oracle.posteriors[index('F')]![1]!, 'P(F = defect | e)');
  for (const name of ['E', 'D', 'Min']) {
    close((out.marginals[name] as Continuous).mean, oracle.posteriors[index(name)]![0]!, `mean ${name}`);
    close((out.marginals[name] as Continuous).variance, oracle.posteriors[index(name)]![1]!, `variance ${name}`);
  }
});

test('bayes convert: a network with continuous nodes round-trips through .net and is refused by the discrete formats', async () => {
  const { dir } = tempFile('x.txt', '');
  try {
    const once = join(dir, 'once.net');
    const twice = join(dir, 'twice.net');
    assert.equal(await main(['convert', 'examples/data/waste.net', once], capture()), 0);
    assert.equal(await main(['convert', once, twice], capture()), 0);
    assert.equal(readFileSync(once, 'utf8'), readFileSync(twice, 'utf8'));
    const a = readHuginHybrid(readFileSync('examples/data/waste.net', 'utf8'));
    const b = readHuginHybrid(readFileSync(once, 'utf8'));
    assert.deepEqual(b, a);
    for (const out of ['w.bif', 'w.xml', 'w.uai']) {
      const io = capture();
      assert.equal(await main(['convert', 'examples/data/waste.net', join(dir, out)], io), 1);
      assert.match(
        io.stderr,
        /waste has continuous nodes \(E, D, C, …\), which .* cannot hold: write Hugin NET \(\.net\)/,
      );
    }
    // CLG tables as .bayes rows (`d: Normal(…)`): NET → .bayes → NET keeps every number.
    const bayes = join(dir, 'w.bayes');
    const back = join(dir, 'back.net');
    let io = capture();
    assert.equal(await main(['convert', 'examples/data/waste.net', bayes], io), 0, io.stderr);
    assert.match(readFileSync(bayes, 'utf8'), /\n {4}\w+(, \w+)*: Normal\(mean: /);
    io = capture();
    assert.equal(await main(['convert', bayes, back], io), 0, io.stderr);
    const c = readHuginHybrid(readFileSync(back, 'utf8'));
    assert.ok('hybrid' in a && 'hybrid' in c);
    assert.deepEqual(c.hybrid.cpds, a.hybrid.cpds);
    assert.deepEqual(c.hybrid.variables.map((v) => v.name).sort(), a.hybrid.variables.map((v) => v.name).sort());
  } finally {
    rmSync(dir, { recursive: true });
  }
});
