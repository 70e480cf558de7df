/**
 * `bayes marginals` on a CLG network with virtual (--likelihood) and soft (--soft) findings on
 * discrete nodes, compared with numpy's enumeration of the discrete joint; findings on continuous
 * nodes refused; and the progress line of hybrid likelihood weighting on a terminal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { writeHuginHybrid } from '../../../server/src/model/hugin.js';
import { capture, tempFile } from '../../support/cli.js';
import { randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { findingsOracle } from '../../support/hybridFindingsOracle.js';
import { pythonMissing } from '../../support/python.js';
import { repoRoot } from '../../support/shared.js';

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

test('bayes marginals --likelihood / --soft on a CLG .net file equal numpy, with continuous evidence', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const net = randomHybridNetwork({ continuous: 6, discrete: 3, seed: 11 });
  const { file, dir } = tempFile('clg.net', writeHuginHybrid(net));
  try {
    const evidence = sampledEvidence(net, [4, 7], 5);
    const states = (v: number) => (net.variables[v] as { states: string[] }).states.length;
    const lambda = Array.from({ length: states(0) }, (_, s) => s + 1);
    const q = Array.from({ length: states(1) }, (_, s, k = states(1)) => (s + 1) / ((k * (k + 1)) / 2));
    const args = [
      ...[...evidence.continuous].map(([v, x]) => `--evidence=${net.variables[v]!.name}=${x}`),
      `--likelihood=D0=${lambda.join(',')}`,
      `--soft=D1=${q.join(',')}`,
    ];
    const io = capture();
    assert.equal(await main(['marginals', file, ...args, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout) as {
      likelihood: Record<string, number[]>;
      soft: Record<string, number[]>;
      marginals: Record<string, Record<string, number> & { mean: number; variance: number }>;
    };
    assert.deepEqual(out.likelihood, { D0: lambda });
    const [oracle] = findingsOracle(net, [
      { ...evidence, likelihoods: new Map([[0, lambda]]), soft: new Map([[1, q]]) },
    ]);
    net.variables.forEach((v, i) => {
      const got = out.marginals[v.name]!;
      if (v.kind === 'discrete')
        v.states.forEach((s, k) => close(got[s]!, oracle!.posteriors[i]![k]!, `${v.name}=${s}`));
      else {
        close(got.mean, oracle!.posteriors[i]![0]!, `mean ${v.name}`);
        close(got.variance, oracle!.posteriors[i]![1]!, `variance ${v.name}`);
      }
    });
    q.forEach((p, s) => close(out.marginals.D1![`s${s}`]!, p, `D1 = s${s} is the soft finding`));
    const text = capture();
    assert.equal(await main(['marginals', file, ...args], text), 0);
    assert.match(text.stdout, /D0 \(virtual evidence\): /);
    assert.match(text.stdout, /D1 \(soft evidence\): /);
    const onContinuous = capture();
    assert.equal(await main(['marginals', file, '--soft=X0=0.5,0.5'], onContinuous), 1);
    assert.match(onContinuous.stderr, /'X0' is continuous: .*observe X0 with a number/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

const cli = join(repoRoot, 'dist', 'cli.cjs');
const noScript = spawnSync('script', ['--version']).status === 0 ? false : "util-linux's script is not installed";

test('hybrid likelihood weighting draws a progress line on a terminal, none in a pipe', (t) => {
  if (!existsSync(cli)) return t.skip('dist/ is not built: run node esbuild.mjs');
  if (noScript) return t.skip(noScript);
  const waste = join(repoRoot, 'examples', 'data', 'waste.net');
  const command = `node ${cli} marginals ${waste} -e C=-0.9 --method lw --samples 2000000 --json > /dev/null`;
  const r = spawnSync('script', ['-qfec', command, '/dev/null'], { cwd: repoRoot, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /lw \d+\/2000000 samples · [\d.]+\/s · \S+ left/);
  const piped = spawnSync(process.execPath, [cli, 'marginals', waste, '-e', 'C=-0.9', '--method', 'lw'], {
    encoding: 'utf8',
  });
  assert.equal(piped.status, 0);
  assert.equal(piped.stderr, '');
});
