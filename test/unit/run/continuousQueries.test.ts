/**
 * Runs on continuous variables: `observe X = 1.5`, `query P(X)`, `mean X`, `variance X` and
 * discrete queries given continuous evidence, through the whole pipeline, equal to numpy
 * (multivariate normal conditioning; for CLG networks every discrete configuration enumerated)
 * to 1e-9; examples/clg.bayes's expects against numpy; the checker on evidence and moments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBayesHybrid } from '../../../server/src/model/gaussianBayesWriter.js';
import type { ContinuousResult, ProbabilityResult, RunResult } from '../../../server/src/protocol/runResult.js';
import { numpyOracle, randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { repoRoot } from '../../support/shared.js';
import { run } from './helpers.js';
import { hover } from '../../../server/src/features/hover.js';
import { parseDocument } from '../../../server/src/language/index.js';

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function errorsOf(result: RunResult): string[] {
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range.start.line + 1}: ${d.message}`);
}

for (const [continuous, discrete, seed] of [
  [6, 0, 3],
  [7, 3, 11],
  [5, 4, 29],
] as const) {
  test(`a ${discrete ? 'CLG' : 'Gaussian'} network of ${continuous + discrete} variables run in the language equals numpy (seed ${seed})`, async (t) => {
    const missing = pythonMissing(['numpy']);
    if (missing) return t.skip(missing);
    const net = randomHybridNetwork({ continuous, discrete, seed });
    const observed = [discrete + 1, discrete + continuous - 1, ...(discrete ? [0] : [])];
    const evidence = sampledEvidence(net, observed, seed + 1);
    const text = writeBayesHybrid(net);
    const name = /^network (\w+)/.exec(text)![1]!;
    const observe = [...evidence.discrete, ...evidence.continuous]
      .map(([v, x]) => {
        const variable = net.variables[v]!;
        return `${variable.name} = ${variable.kind === 'discrete' ? variable.states[x]! : String(x)}`;
      })
      .join(', ');
    const queries = net.variables
      .map((v) => (v.kind === 'discrete' ? `query P(${v.name}) in ${name}` : `query P(${v.name}) in ${name}`))
      .join('\n');
    const moments = net.variables
      .filter((v) => v.kind === 'continuous')
      .map((v) => `query mean ${v.name} in ${name}\nquery variance ${v.name} in ${name}`)
      .join('\n');
    const result = await run(`${text}observe ${observe} in ${name}\n${queries}\n${moments}\n`);
    assert.deepEqual(errorsOf(result), []);
    const oracle = numpyOracle(net, evidence);
    const entries = result.results as (ProbabilityResult | ContinuousResult)[];
    net.variables.forEach((v, i) => {
      const answers = entries.filter((e) =>
        e.kind === 'continuous' ? e.variable === v.name : e.kind === 'probability' && e.variables[0] === v.name,
      );
      if (v.kind === 'discrete') {
        const p = answers[0] as ProbabilityResult;
        v.states.forEach((s, k) => close(p.table[k]!.p, oracle.posteriors[i]![k]!, `P(${v.name} = ${s})`));
        if (p.logEvidence !== undefined) close(p.logEvidence, oracle.logEvidence, 'log density of the evidence');
        return;
      }
      assert.equal(answers.length, 3);
      for (const c of answers as ContinuousResult[]) {
        close(c.mean, oracle.posteriors[i]![0]!, `mean ${v.name}`);
        close(c.variance, oracle.posteriors[i]![1]!, `variance ${v.name}`);
        close(c.logEvidence!, oracle.logEvidence, 'log density of the evidence');
        if (c.moment) close(c.value!, oracle.posteriors[i]![c.moment === 'mean' ? 0 : 1]!, `${c.moment} ${v.name}`);
        const weights = (c.components ?? []).reduce((s, k) => s + k.weight, 0);
        close(weights, 1, `${v.name}'s mixture weights`);
      }
    });
  });
}

/** numpy's answer for examples/clg.bayes: per sex, the bivariate normal of (Height, Weight) conditioned on Weight. */
const CLG_ORACLE = String.raw`
import json, sys
import numpy as np
q = json.load(sys.stdin)
out = {}
for w in q["weights"]:
    parts = []
    for prior, (mh, vh), (a, b, e) in [(0.5, (178., 49.), (-90., 0.95, 36.)), (0.5, (165., 36.), (-70., 0.8, 25.))]:
        S = np.array([[vh, b * vh], [b * vh, b * b * vh + e]]); mu = np.array([mh, a + b * mh])
        dens = np.exp(-(w - mu[1]) ** 2 / (2 * S[1, 1])) / np.sqrt(2 * np.pi * S[1, 1])
        parts.append((prior * dens, mu[0] + S[0, 1] / S[1, 1] * (w - mu[1]), S[0, 0] - S[0, 1] ** 2 / S[1, 1]))
    total = sum(p[0] for p in parts)
    weights = [p[0] / total for p in parts]
    mean = sum(k * p[1] for k, p in zip(weights, parts))
    var = sum(k * (p[2] + (p[1] - mean) ** 2) for k, p in zip(weights, parts))
    out[str(w)] = {"female": weights[1], "mean": mean, "variance": var, "log": float(np.log(total))}
print(json.dumps(out))
`;

test('examples/clg.bayes: continuous evidence moves P(Sex); its expects are numpy’s numbers', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const oracle = runPython<Record<string, { female: number; mean: number; variance: number; log: number }>>(
    CLG_ORACLE,
    { weights: [62, 90] },
  );
  const text = readFileSync(join(repoRoot, 'examples', 'clg.bayes'), 'utf8');
  // the numbers written in the example are numpy's, to the 12 digits written
  const written = (pattern: RegExp) => Number(pattern.exec(text)![1]);
  assert.ok(Math.abs(written(/P\(Sex = female\) in Body ≈ ([\d.]+)/) - oracle['62']!.female) < 1e-12);
  assert.ok(Math.abs(written(/mean Height in Body ≈ ([\d.]+)/) - oracle['62']!.mean) < 1e-12);
  assert.ok(Math.abs(written(/variance Height in Body ≈ ([\d.]+)/) - oracle['62']!.variance) < 1e-12);
  const result = await run(
    `${text}\nquery P(Sex = female) in Body given Weight = 90\nquery P(Height) in Body given Weight = 90\n`,
    'clg.bayes',
  );
  assert.deepEqual(errorsOf(result), []);
  const expects = result.results.filter((r) => r.kind === 'expect');
  assert.equal(expects.length, 4);
  assert.ok(expects.every((e) => e.kind === 'expect' && e.passed));
  const heavy = result.results.find(
    (r) => r.kind === 'probability' && r.source.includes('Weight = 90'),
  ) as ProbabilityResult;
  close(heavy.value!, oracle['90']!.female, 'P(female | Weight = 90)');
  close(heavy.logEvidence!, oracle['90']!.log, 'ln p(Weight = 90)');
  const height = result.results.find(
    (r) => r.kind === 'continuous' && r.source.includes('Weight = 90'),
  ) as ContinuousResult;
  close(height.mean, oracle['90']!.mean, 'mean Height | 90');
  close(height.variance, oracle['90']!.variance, 'variance Height | 90');
  assert.equal(height.components!.length, 2);
});

test('the checker and the run on continuous evidence and moments: errors on their ranges', async () => {
  const text = `network Body {
  variable Sex { male, female }
  variable Height : real
  P(Sex) { male: 0.5, female: 0.5 }
  P(Height | Sex) { male: Normal(mean: 178, variance: 49), female: Normal(mean: 165, variance: 36) }
}
observe Height = tall in Body
observe Sex = 80 in Body
query mean Sex in Body
query P(Height = 170) in Body given Height = 170
`;
  const result = await run(text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.range.start.line, d.message]);
  assert.deepEqual(errors.slice(0, 3), [
    [6, "'Height' takes numbers, not 'tall'"],
    [7, "'80' is not a state of 'Sex' (male, female)"],
    [8, "'Sex' has states: `mean X` asks for a continuous ('real') variable; ask P(Sex) for its distribution"],
  ]);
});

test('hover on a continuous variable after a run: its density from the queries on it, a CLG mixture as a mixture', async () => {
  const text = readFileSync(join(repoRoot, 'examples', 'clg.bayes'), 'utf8');
  const result = await run(text, 'clg.bayes');
  const at = text.indexOf('Height, Weight : real');
  const line = text.slice(0, at).split('\n').length - 1;
  const character = at - text.lastIndexOf('\n', at) - 1;
  const shown = (hover(parseDocument(text).ast, { line, character }, result)!.contents as { value: string }).value;
  const height = result.results.find((r) => r.kind === 'continuous') as ContinuousResult;
  const show = (x: number) => String(Number(x.toPrecision(6)));
  assert.match(shown, /density of Height in Body given Weight = 62, exact/);
  assert.ok(shown.includes(`mean ${show(height.mean)}, variance ${show(height.variance)}`), shown);
  const [male, female] = height.components!;
  assert.ok(
    shown.includes(
      `${show(male!.weight)} · N(${show(male!.mean)}, ${show(male!.variance)}) + ${show(female!.weight)} · N(`,
    ),
    shown,
  );
});
