/**
 * Virtual and soft findings on the discrete variables of networks with continuous variables, and
 * `query mpe` on them, run in the language: equal to numpy's enumeration of the discrete joint
 * (test/support/hybridFindingsOracle.ts) to 1e-9; findings on continuous variables are errors on
 * the finding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeBayesHybrid } from '../../../server/src/model/gaussianBayesWriter.js';
import type { HybridEvidence } from '../../../server/src/engine/gaussian/clgInference.js';
import type {
  ContinuousResult,
  MpeResultEntry,
  ProbabilityResult,
  RunResult,
} from '../../../server/src/protocol/runResult.js';
import { randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { findingsOracle } from '../../support/hybridFindingsOracle.js';
import { pythonMissing } from '../../support/python.js';
import { run } from './helpers.js';
import { interactiveHybridMarginals } from '../../../server/src/run/hybridAnswers.js';
import type { HybridNetwork } from '../../../server/src/engine/gaussian/hybridNetwork.js';

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function errorsOf(result: RunResult): string[] {
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range.start.line + 1}: ${d.message}`);
}

for (const seed of [7, 13]) {
  test(`findings and mpe on a random CLG network in the language equal numpy (seed ${seed})`, async (t) => {
    const missing = pythonMissing(['numpy']);
    if (missing) return t.skip(missing);
    const net = randomHybridNetwork({ continuous: 6, discrete: 3, seed });
    const text = writeBayesHybrid(net);
    const name = /^network (\w+)/.exec(text)![1]!;
    const evidence = sampledEvidence(net, [4, 8], seed + 1); // X1 and X5, continuous
    const states = (v: number) => (net.variables[v] as { states: string[] }).states;
    const lambda = states(0).map((_, s) => s + 1);
    const q = states(1).length === 2 ? [0.25, 0.75] : [0.2, 0.3, 0.5];
    const entries = (v: number, x: number[]) =>
      states(v)
        .map((s, k) => `${s}: ${x[k]}`)
        .join(', ');
    const observe = [...evidence.continuous].map(([v, x]) => `${net.variables[v]!.name} = ${x}`).join(', ');
    const given = `given D0 ~ likelihood { ${entries(0, lambda)} }, D1 ~ { ${entries(1, q)} }`;
    const queries = net.variables.map((v) => `query P(${v.name}) in ${name} ${given}`).join('\n');
    const result = await run(
      `${text}observe ${observe} in ${name}\n${queries}\nquery mpe ${name} given D0 ~ likelihood { ${entries(0, lambda)} }\n`,
    );
    assert.deepEqual(errorsOf(result), []);
    const cases: HybridEvidence[] = [
      { ...evidence, likelihoods: new Map([[0, lambda]]), soft: new Map([[1, q]]) },
      { ...evidence, likelihoods: new Map([[0, lambda]]) },
    ];
    const [withBoth, withVirtual] = findingsOracle(net, cases);
    net.variables.forEach((v, i) => {
      const entry = result.results.find(
        (e) =>
          (e.kind === 'continuous' && e.variable === v.name) || (e.kind === 'probability' && e.variables[0] === v.name),
      ) as ProbabilityResult | ContinuousResult;
      if (entry.kind === 'continuous') {
        close(entry.mean, withBoth!.posteriors[i]![0]!, `mean ${v.name}`);
        close(entry.variance, withBoth!.posteriors[i]![1]!, `variance ${v.name}`);
      } else entry.table.forEach((row, s) => close(row.p, withBoth!.posteriors[i]![s]!, `P(${v.name} = ${s})`));
    });
    const mpe = result.results.find((e) => e.kind === 'mpe') as MpeResultEntry;
    close(mpe.logProbability, withVirtual!.mpeLogDensity, 'log p(MPE, e)');
    net.variables.forEach((v, i) => {
      if (evidence.continuous.has(i)) return assert.equal(mpe.assignment[v.name], undefined);
      const x = withVirtual!.mpe[i]!;
      if (v.kind === 'discrete') assert.equal(mpe.assignment[v.name], v.states[x], `MPE of ${v.name}`);
      else close(Number(mpe.assignment[v.name]), x, `MPE of ${v.name}`);
    });
  });
}

test('a finding on a continuous variable, or soft findings that cannot hold, are errors on the finding', async () => {
  const text = `network Body {
  variable Sex { male, female }
  variable Smoker : bool
  variable Height : real
  P(Sex) { male: 0.5, female: 0.5 }
  P(Smoker | Sex) { male: 0.3, female: 0 }
  P(Height | Sex) { male: Normal(mean: 178, variance: 49), female: Normal(mean: 165, variance: 36) }
}
observe Height = 170 in Body
query P(Sex) in Body given Sex = female, Smoker ~ { true: 1 }
query P(Sex = male) in Body given Smoker ~ likelihood { true: 1, false: 0 }
`;
  const result = await run(text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]!.range.start.line, 9);
  assert.match(errors[0]!.message, /soft evidence gives 'Smoker = true' probability 1, but the other evidence/);
  assert.ok(errors[0]!.range.start.character > 40, 'on the finding, not the query');
  // λ rules Smoker = false out, and Smoker = true only happens with Sex = male
  const male = result.results.find((e) => e.kind === 'probability') as ProbabilityResult;
  close(male.value!, 1, 'P(Sex = male | Height = 170, λ)');
});

test("the panel's click on a hybrid network takes a virtual finding on a discrete node (closed form)", () => {
  const net: HybridNetwork = {
    name: 'mix',
    variables: [
      { kind: 'discrete', name: 'D', states: ['a', 'b'] },
      { kind: 'continuous', name: 'X' },
    ],
    cpds: [
      { kind: 'discrete', cpt: { child: 0, parents: [], table: Float64Array.of(0.3, 0.7) } },
      {
        kind: 'gaussian',
        cpd: {
          child: 1,
          discreteParents: [0],
          continuousParents: [],
          intercepts: Float64Array.of(0, 2),
          coefficients: new Float64Array(0),
          variances: Float64Array.of(1, 4),
        },
      },
    ],
  };
  const normal = (x: number, m: number, v: number) => Math.exp((-0.5 * (x - m) ** 2) / v) / Math.sqrt(2 * Math.PI * v);
  const reply = interactiveHybridMarginals(net, { evidence: { X: '1' }, likelihoods: { D: [0.8, 0.2] } });
  assert.ok(!('error' in reply), JSON.stringify(reply));
  const a = 0.3 * normal(1, 0, 1) * 0.8;
  const b = 0.7 * normal(1, 2, 4) * 0.2;
  close((reply as { marginals: Record<string, number[]> }).marginals.D![0]!, a / (a + b), 'P(D = a | X = 1, λ)');
  const refused = interactiveHybridMarginals(net, { soft: { X: [0.5, 0.5] } });
  assert.match((refused as { error: string }).error, /'X' is continuous/);
});
