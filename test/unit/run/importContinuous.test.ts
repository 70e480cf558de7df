/**
 * `import network N from "x.net"` of a Hugin NET file with continuous nodes and CLG potentials:
 * its variables are `real` variables, and queries, `mean`, `variance`, observations, the panel's
 * network entry and hover answer as on the same network written inline — the same numbers as
 * the inline network, as `bayes marginals x.net --json`, and as numpy. A malformed continuous
 * part is an `import-file` error on the path, naming the line of the file at fault.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { writeHuginHybrid } from '../../../server/src/model/hugin.js';
import { writeBayesHybrid } from '../../../server/src/model/gaussianBayesWriter.js';
import { runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { hover } from '../../../server/src/features/hover.js';
import { parseDocument } from '../../../server/src/language/index.js';
import type { HybridNetwork } from '../../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridEvidence } from '../../../server/src/engine/gaussian/clgInference.js';
import type {
  ContinuousResult,
  NetworkResult,
  ProbabilityResult,
  RunResult,
} from '../../../server/src/protocol/runResult.js';
import { numpyOracle, randomHybridNetwork, sampledEvidence } from '../../support/hybridNetworks.js';
import { pythonMissing } from '../../support/python.js';
import { capture } from '../../support/cli.js';

const close = (a: number, b: number, what: string, tolerance = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** Runs `text` as model.bayes in `dir` (the workspace), through the real pipeline. */
function runIn(dir: string, text: string): Promise<RunResult> {
  const documentPath = join(dir, 'model.bayes');
  return runText(text, documentPath, nodeEnvironment({ documentPath, workspaceRoot: dir }));
}

function errorsOf(result: RunResult): string[] {
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range.start.line + 1}: ${d.message}`);
}

function evidenceText(net: HybridNetwork, evidence: HybridEvidence): string[] {
  return [...evidence.discrete, ...evidence.continuous].map(([v, x]) => {
    const variable = net.variables[v]!;
    return `${variable.name}=${variable.kind === 'discrete' ? variable.states[x]! : String(x)}`;
  });
}

/** Every variable's answer: P(X) for each, then mean and variance of each continuous one, in `scope`. */
function queries(net: HybridNetwork, scope: string): string {
  const lines = net.variables.map((v) => `query P(${v.name}) in ${scope}`);
  for (const v of net.variables.filter((x) => x.kind === 'continuous'))
    lines.push(`query mean ${v.name} in ${scope}`, `query variance ${v.name} in ${scope}`);
  return lines.join('\n') + '\n';
}

type Answer = ProbabilityResult | ContinuousResult;

function answers(result: RunResult): Answer[] {
  return result.results.filter((r): r is Answer => r.kind === 'probability' || r.kind === 'continuous');
}

for (const [continuous, discrete, seed] of [
  [5, 0, 4],
  [6, 3, 17],
] as const) {
  test(`an imported ${discrete ? 'CLG' : 'Gaussian'} .net answers as the same network inline, as bayes marginals and as numpy (seed ${seed})`, async (t) => {
    const net = randomHybridNetwork({ continuous, discrete, seed });
    const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-'));
    try {
      writeFileSync(join(dir, 'net.net'), writeHuginHybrid(net));
      const observed = [discrete + 1, discrete + continuous - 1, ...(discrete ? [0] : [])];
      const evidence = sampledEvidence(net, observed, seed + 1);
      const observe = evidenceText(net, evidence).join(', ').replaceAll('=', ' = ');
      const imported = await runIn(
        dir,
        `import network Imported from "net.net"\nobserve ${observe} in Imported\n${queries(net, 'Imported')}`,
      );
      const inlineText = writeBayesHybrid(net);
      const name = /^network (\w+)/m.exec(inlineText)![1]!;
      const inline = await runIn(dir, `${inlineText}observe ${observe} in ${name}\n${queries(net, name)}`);
      assert.deepEqual(errorsOf(imported), []);
      assert.deepEqual(errorsOf(inline), []);
      const a = answers(imported),
        b = answers(inline);
      assert.equal(a.length, net.variables.length + 2 * continuous);
      assert.equal(a.length, b.length);
      a.forEach((x, i) => {
        const y = b[i]!;
        assert.equal(x.kind, y.kind);
        if (x.kind === 'continuous' && y.kind === 'continuous') {
          assert.equal(x.variable, y.variable);
          close(x.mean, y.mean, `mean ${x.variable}`, 1e-12);
          close(x.variance, y.variance, `variance ${x.variable}`, 1e-12);
          if (x.value !== undefined) close(x.value, y.value!, `${x.moment} ${x.variable}`, 1e-12);
          close(x.logEvidence!, y.logEvidence!, 'log density of the evidence', 1e-12);
        } else if (x.kind === 'probability' && y.kind === 'probability') {
          x.table.forEach((row, k) => close(row.p, y.table[k]!.p, `P(${x.variables[0]})`, 1e-12));
        }
      });
      // bayes marginals on the same file, with the same evidence
      const io = capture();
      const args = evidenceText(net, evidence).flatMap((e) => ['-e', e]);
      assert.equal(await main(['marginals', join(dir, 'net.net'), ...args, '--json'], io), 0, io.stderr);
      const cli = JSON.parse(io.stdout) as {
        marginals: Record<string, Record<string, number> & { mean?: number; variance?: number }>;
      };
      for (const x of a) {
        if (x.kind === 'continuous') {
          close(x.mean, cli.marginals[x.variable]!.mean!, `bayes marginals: mean ${x.variable}`, 1e-12);
          close(x.variance, cli.marginals[x.variable]!.variance!, `bayes marginals: variance ${x.variable}`, 1e-12);
        } else {
          for (const row of x.table)
            close(row.p, cli.marginals[x.variables[0]!]![row.states[0]!]!, `bayes marginals: P(${x.variables[0]})`);
        }
      }
      // and numpy's conditioning
      const missing = pythonMissing(['numpy']);
      if (missing) return t.diagnostic(`numpy oracle skipped: ${missing}`);
      const oracle = numpyOracle(net, evidence);
      for (const x of a) {
        const i = net.variables.findIndex((v) => v.name === (x.kind === 'continuous' ? x.variable : x.variables[0]));
        if (x.kind === 'continuous') {
          close(x.mean, oracle.posteriors[i]![0]!, `numpy: mean ${x.variable}`);
          close(x.variance, oracle.posteriors[i]![1]!, `numpy: variance ${x.variable}`);
        } else x.table.forEach((row, k) => close(row.p, oracle.posteriors[i]![k]!, `numpy: P(${x.variables[0]})`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const WASTE = `net { name = "waste"; }
node B { states = ("stable" "unstable"); }
node W { states = ("industrial" "household"); }
continuous node E { }
continuous node D { }
potential ( B ) { data = ( 0.85 0.15 ); }
potential ( W ) { data = ( 0.3 0.7 ); }
potential ( E | W ) { data = ( normal ( -3.2, 0.02 ) normal ( -0.5, 0.01 ) ); }
potential ( D | B E ) { data = ( normal ( 6.5 + E, 0.03 ) normal ( 7.5 + E, 0.1 ) ); }
`;

test('an imported CLG network: the panel draws its densities, hover shows a query’s answer, the checker knows real variables', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-'));
  try {
    writeFileSync(join(dir, 'waste.net'), WASTE);
    const text = [
      'import network Waste from "waste.net"',
      'observe D = 4 in Waste',
      'query mean E in Waste',
      'query P(W = household) in Waste given D = 6.2',
    ].join('\n');
    const result = await runIn(dir, text + '\n');
    assert.deepEqual(errorsOf(result), []);
    const network = result.results.find((r): r is NetworkResult => r.kind === 'network')!;
    assert.equal(network.network, 'Waste');
    const e = network.variables.find((v) => v.name === 'E')!;
    assert.ok(e.continuous, 'E is drawn as a density');
    // Given D = 4, D − E ≈ 6.5 or 7.5 puts E near −2.5 to −3.5: W = industrial, E ≈ −3.2.
    assert.ok(Math.abs(e.continuous.posterior.mean - -3.2) < 0.5, JSON.stringify(e.continuous.posterior));
    assert.ok(Math.abs(e.continuous.prior.mean - (0.3 * -3.2 + 0.7 * -0.5)) < 1e-12);
    const shown = hover(parseDocument(text).ast, { line: 2, character: 6 }, result);
    assert.match(JSON.stringify(shown?.contents), /mean E/);
    const checked = await runIn(
      dir,
      'import network Waste from "waste.net"\nobserve E = high in Waste\nquery mean B in Waste\n',
    );
    const messages = checked.diagnostics.filter((d) => d.severity === 'error').map((d) => d.range.start.line);
    assert.deepEqual(messages, [1, 2], JSON.stringify(checked.diagnostics));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const MALFORMED: [string, string, RegExp][] = [
  [
    'a discrete node with a continuous parent',
    'net { }\ncontinuous node Y { }\nnode D { states = ("a" "b"); }\npotential ( Y ) { data = ( normal ( 1, 2 ) ); }\npotential ( D | Y ) { data = (( 0.5 0.5 )); }\n',
    /line 5: 'D' is discrete and cannot have the continuous parent 'Y'/,
  ],
  [
    'a variance of 0',
    'net { }\ncontinuous node Y { }\npotential ( Y ) { data = ( normal ( 1, 0 ) ); }\n',
    /line 3: the variance of 'Y' must be > 0, found 0/,
  ],
  [
    'a negative variance',
    'net { }\ncontinuous node Y { }\ncontinuous node Z { }\npotential ( Y ) { data = ( normal ( 1, 2 ) ); }\npotential ( Z | Y ) { data = ( normal ( 1 + 2 * Y, -1 ) ); }\n',
    /line 5: the variance of 'Z' must be > 0, found -1/,
  ],
  [
    'a mean naming a variable that is not a parent',
    'net { }\ncontinuous node Y { }\ncontinuous node Z { }\npotential ( Y ) { data = ( normal ( 1, 2 ) ); }\npotential ( Z ) { data = ( normal ( 1 + 2 * Y, 1 ) ); }\n',
    /line 5: the mean of 'Z' uses 'Y', which is not one of its continuous parents/,
  ],
  [
    'too few normals for the discrete parents',
    'net { }\nnode D { states = ("a" "b"); }\ncontinuous node Y { }\npotential ( D ) { data = ( 0.5 0.5 ); }\npotential ( Y | D ) { data = ( normal ( 1, 2 ) ); }\n',
    /line 5: the data of 'Y' has 1 normal distributions, expected 2/,
  ],
  [
    'a cycle through continuous nodes',
    'net { }\ncontinuous node Y { }\ncontinuous node Z { }\npotential ( Y | Z ) { data = ( normal ( Z, 2 ) ); }\npotential ( Z | Y ) { data = ( normal ( Y, 1 ) ); }\n',
    /cycle/,
  ],
  [
    'a mean that is not linear',
    'net { }\ncontinuous node Y { }\ncontinuous node Z { }\npotential ( Y ) { data = ( normal ( 1, 2 ) ); }\npotential ( Z | Y ) { data = ( normal ( Y * Y, 1 ) ); }\n',
    /line 5: /,
  ],
  [
    'a continuous node without a potential',
    'net { }\ncontinuous node Y { }\nnode D { states = ("a" "b"); }\npotential ( D ) { data = ( 0.5 0.5 ); }\n',
    /'Y' has no potential/,
  ],
];

test('a malformed continuous part: an import-file error on the path, naming the line; nothing is answered from it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-'));
  try {
    for (const [what, net, message] of MALFORMED) {
      writeFileSync(join(dir, 'bad.net'), net);
      const result = await runIn(dir, 'import network Bad from "bad.net"\nquery mean Y in Bad\n');
      const error = result.diagnostics.find((d) => d.severity === 'error');
      assert.ok(error, `${what}: no error`);
      assert.equal(error.code, 'import-file', what);
      assert.match(error.message, message, what);
      assert.match(error.message, /^cannot read network "bad\.net": /, what);
      assert.deepEqual(
        [error.range.start.line, error.range.start.character, error.range.end.character],
        [0, 24, 33],
        what,
      );
      assert.equal(result.results.filter((r) => r.kind === 'continuous').length, 0, what);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('XMLBIF, BIF and UAI stay discrete: a Hugin NET file is the one format with continuous nodes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-'));
  try {
    // A BIF whose text says "continuous" is read by the BIF reader, which knows no such node.
    writeFileSync(
      join(dir, 'x.bif'),
      'network n {}\n// continuous\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\nprobability ( A ) {\n  table 0.3, 0.7;\n}\n',
    );
    const result = await runIn(dir, 'import network X from "x.bif"\nexpect P(A = a) in X ≈ 0.3\n');
    assert.deepEqual(errorsOf(result), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
