/**
 * `learn N from D` of continuous tables in the language: a linear Gaussian table by least squares
 * (coefficients equal to numpy's lstsq to 1e-9, the variance RSS / n), a CLG table with one
 * regression per configuration of its discrete parents, the learnt network's query answers; EM
 * for a Gaussian network with `?` values, equal to `bayes learn NET.net --data rows.csv`; an
 * imported NET file learnt from data; and the diagnostics (too few records in a configuration,
 * a missing column, `by em` with discrete variables, a word in a numeric column).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { createRng } from '../../../server/src/engine/random.js';
import { runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import type {
  ContinuousResult,
  LearnedNetworkResult,
  ProbabilityResult,
  RegressionJson,
  RunResult,
} from '../../../server/src/protocol/runResult.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { capture } from '../../support/cli.js';

const close = (a: number, b: number, what: string, tolerance = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function runIn(dir: string, text: string): Promise<RunResult> {
  const documentPath = join(dir, 'model.bayes');
  return runText(text, documentPath, nodeEnvironment({ documentPath, workspaceRoot: dir }));
}

function errorsOf(result: RunResult): { line: number; message: string }[] {
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({ line: d.range.start.line + 1, message: d.message }));
}

interface Rows {
  Sex: string[];
  Group: string[];
  X1: number[];
  X2: number[];
  Y: number[];
  Z: number[];
}

/**
 * n records of Sex {m, f}, Group {a, b, c}, X1, X2 (continuous roots), Y | Sex, Group, X1, X2 (CLG:
 * six regressions) and Z | X1, X2 (linear Gaussian), drawn with a seed.
 */
function records(n: number, seed: number): Rows {
  const rng = createRng(seed);
  const rows: Rows = { Sex: [], Group: [], X1: [], X2: [], Y: [], Z: [] };
  for (let i = 0; i < n; i++) {
    const sex = rng.next() < 0.4 ? 0 : 1;
    const group = rng.int(3);
    const x1 = 10 + 3 * rng.normal();
    const x2 = -2 + 0.5 * x1 + 1.5 * rng.normal();
    const d = sex * 3 + group;
    const y = d - 4 + (0.3 + 0.1 * d) * x1 - (1 - 0.2 * d) * x2 + (0.5 + 0.1 * d) * rng.normal();
    const z = 1.5 + 2 * x1 - 0.7 * x2 + 0.8 * rng.normal();
    rows.Sex.push(['m', 'f'][sex]!);
    rows.Group.push(['a', 'b', 'c'][group]!);
    rows.X1.push(x1);
    rows.X2.push(x2);
    rows.Y.push(y);
    rows.Z.push(z);
  }
  return rows;
}

function csv(rows: Rows, missing: (column: string, i: number) => boolean = () => false): string {
  const columns = ['Sex', 'Group', 'X1', 'X2', 'Y', 'Z'] as const;
  const lines = [columns.join(',')];
  for (let i = 0; i < rows.X1.length; i++)
    lines.push(columns.map((c) => (missing(c, i) ? '?' : String(rows[c][i]))).join(','));
  return lines.join('\n') + '\n';
}

const BODY = `network Body {
  variable Sex { m, f }
  variable Group { a, b, c }
  variable X1, X2, Y, Z : real
  P(Sex) ~ Dirichlet(1)
  P(Group) ~ Dirichlet(1)
  P(X1) ~ Normal()
  P(X2 | X1) ~ Normal()
  P(Y | Sex, Group, X1, X2) ~ Normal()
  P(Z | X1, X2) ~ Normal()
}
data Rows from "rows.csv"
learn Body from Rows
`;

/** numpy's least squares of y on [1, xs] over the rows where `where` holds: coefficients and RSS / n. */
const LSTSQ = String.raw`
import json, sys
import numpy as np
q = json.load(sys.stdin)
out = []
for fit in q["fits"]:
    y = np.array(fit["y"]); X = np.column_stack([np.ones(len(y))] + [np.array(x) for x in fit["xs"]])
    beta, _, _, _ = np.linalg.lstsq(X, y, rcond=None)
    r = y - X @ beta
    out.append({"beta": beta.tolist(), "variance": float(r @ r) / len(y)})
print(json.dumps(out))
`;

test('learn: linear Gaussian and CLG tables equal numpy lstsq to 1e-9 (400 records), and the learnt network answers with them', async (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const rows = records(400, 7);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-learn-clg-'));
  try {
    writeFileSync(join(dir, 'rows.csv'), csv(rows));
    const queries = [
      'query mean Z in Body given X1 = 11, X2 = 3',
      'query variance Z in Body given X1 = 11, X2 = 3',
      'query mean Y in Body given Sex = f, Group = b, X1 = 9, X2 = 2.5',
      'query P(Sex = m) in Body',
    ];
    const result = await runIn(dir, BODY + queries.join('\n') + '\n');
    assert.deepEqual(errorsOf(result), []);
    const learnt = result.results.find((r): r is LearnedNetworkResult => r.kind === 'learnedNetwork')!;
    assert.equal(learnt.method, 'counting');
    assert.equal(learnt.records, 400);
    const regressions = learnt.regressions!;
    // The fits numpy is asked for: X1 on nothing, X2 on X1, Z on X1, X2, Y on X1, X2 per (Sex, Group).
    const pick = (keep: (i: number) => boolean, column: number[]) => column.filter((_, i) => keep(i));
    const fits: { name: string; given: string[]; y: number[]; xs: number[][] }[] = [
      { name: 'X1', given: [], y: rows.X1, xs: [] },
      { name: 'X2', given: [], y: rows.X2, xs: [rows.X1] },
      { name: 'Z', given: [], y: rows.Z, xs: [rows.X1, rows.X2] },
    ];
    for (const sex of ['m', 'f'])
      for (const group of ['a', 'b', 'c']) {
        const keep = (i: number) => rows.Sex[i] === sex && rows.Group[i] === group;
        fits.push({
          name: 'Y',
          given: [sex, group],
          y: pick(keep, rows.Y),
          xs: [pick(keep, rows.X1), pick(keep, rows.X2)],
        });
      }
    const oracle = runPython<{ beta: number[]; variance: number }[]>(LSTSQ, { fits });
    fits.forEach((fit, k) => {
      const table: RegressionJson = regressions[fit.name]!;
      const row = table.configurations.find((c) => c.given.join() === fit.given.join())!;
      assert.ok(row, `${fit.name} given ${fit.given.join()}`);
      assert.equal(row.records, fit.y.length);
      const what = `${fit.name}${fit.given.length ? ` given ${fit.given.join(', ')}` : ''}`;
      close(row.intercept, oracle[k]!.beta[0]!, `${what}: intercept`);
      table.continuousParents.forEach((p, j) =>
        close(row.coefficients[p]!, oracle[k]!.beta[j + 1]!, `${what}: coefficient of ${p}`),
      );
      close(row.variance, oracle[k]!.variance, `${what}: variance (RSS / n)`);
    });
    assert.deepEqual(regressions.Y!.discreteParents, ['Sex', 'Group']);
    assert.equal(regressions.Y!.configurations.length, 6);
    // The learnt network answers: given its parents, Z's posterior is its regression.
    const answer = (line: number) => result.results.find((r) => r.range.start.line === line)!;
    const z = regressions.Z!.configurations[0]!;
    const zMean = z.intercept + 11 * z.coefficients.X1! + 3 * z.coefficients.X2!;
    close((answer(13) as ContinuousResult).value!, zMean, 'mean Z given X1, X2', 1e-12);
    close((answer(14) as ContinuousResult).value!, z.variance, 'variance Z given X1, X2', 1e-12);
    const y = regressions.Y!.configurations.find((c) => c.given.join() === 'f,b')!;
    close(
      (answer(15) as ContinuousResult).value!,
      y.intercept + 9 * y.coefficients.X1! + 2.5 * y.coefficients.X2!,
      'mean Y',
      1e-12,
    );
    // Sex's table is counted with its declared Dirichlet(1) prior.
    const males = rows.Sex.filter((s) => s === 'm').length;
    close((answer(16) as ProbabilityResult).value!, (males + 1) / (400 + 2), 'P(Sex = m)', 1e-12);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const GAUSSIAN_NET = `net { name = "g"; }
continuous node X1 { }
continuous node X2 { }
continuous node Z { }
potential ( X1 ) { data = ( normal ( 0, 1 ) ); }
potential ( X2 | X1 ) { data = ( normal ( 0 + 1 * X1, 1 ) ); }
potential ( Z | X1 X2 ) { data = ( normal ( 0 + 1 * X1 + 1 * X2, 1 ) ); }
`;

interface CliNode {
  configurations?: { intercept: number; coefficients: Record<string, number>; variance: number }[];
}

async function cliLearn(dir: string, net: string, data: string, extra: string[] = []) {
  const io = capture();
  const code = await main(['learn', join(dir, net), '--data', join(dir, data), '--json', ...extra], io);
  assert.equal(code, 0, io.stderr);
  return JSON.parse(io.stdout) as { method: string; logLikelihood: number; nodes: Record<string, CliNode> };
}

function sameAsCli(learnt: LearnedNetworkResult, cli: { nodes: Record<string, CliNode> }, tolerance: number): void {
  for (const [name, table] of Object.entries(learnt.regressions!)) {
    table.configurations.forEach((row, d) => {
      const other = cli.nodes[name]!.configurations![d]!;
      close(row.intercept, other.intercept, `${name}: intercept`, tolerance);
      close(row.variance, other.variance, `${name}: variance`, tolerance);
      for (const p of table.continuousParents)
        close(row.coefficients[p]!, other.coefficients[p]!, `${name}: coefficient of ${p}`, tolerance);
    });
  }
}

test('learn an imported Gaussian .net: complete data as bayes learn; with ? values by EM, as bayes learn --method em', async () => {
  const rows = records(300, 21);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-learn-clg-'));
  try {
    writeFileSync(join(dir, 'g.net'), GAUSSIAN_NET);
    writeFileSync(join(dir, 'rows.csv'), csv(rows));
    // Every 7th X2 and every 5th Z unknown.
    writeFileSync(
      join(dir, 'partial.csv'),
      csv(rows, (c, i) => (c === 'X2' && i % 7 === 3) || (c === 'Z' && i % 5 === 1)),
    );
    const text = [
      'import network G from "g.net"',
      'data Rows from "rows.csv"',
      'data Partial from "partial.csv"',
      'learn G from Rows',
      'learn G from Partial { iterations: 500, seed: 1 }',
      'query mean Z in G given X1 = 10',
    ].join('\n');
    const result = await runIn(dir, text + '\n');
    assert.deepEqual(errorsOf(result), []);
    const [complete, em] = result.results.filter((r): r is LearnedNetworkResult => r.kind === 'learnedNetwork');
    assert.equal(complete!.method, 'counting');
    assert.equal(em!.method, 'em');
    assert.ok(em!.converged);
    sameAsCli(complete!, await cliLearn(dir, 'g.net', 'rows.csv'), 1e-12);
    const cliEm = await cliLearn(dir, 'g.net', 'partial.csv', ['--iterations', '500', '--seed', '1']);
    assert.equal(cliEm.method, 'em');
    sameAsCli(em!, cliEm, 1e-12);
    close(em!.logLikelihood, cliEm.logLikelihood, 'EM log-likelihood', 1e-12);
    // The unused columns of the data are named once.
    const unused = result.diagnostics.filter((d) => d.code === 'unused-column');
    assert.ok(unused.length >= 1 && /Sex, Group/.test(unused[0]!.message), JSON.stringify(result.diagnostics));
    // Later queries use the EM fit: E[Z | X1 = 10] = b_Z + c1·10 + c2·E[X2 | X1 = 10].
    const r = em!.regressions!;
    const x2 = r.X2!.configurations[0]!;
    const zr = r.Z!.configurations[0]!;
    const expected =
      zr.intercept + zr.coefficients.X1! * 10 + zr.coefficients.X2! * (x2.intercept + x2.coefficients.X1! * 10);
    const mean = result.results.find((x): x is ContinuousResult => x.kind === 'continuous')!;
    close(mean.value!, expected, 'mean Z given X1 = 10 after EM', 1e-12);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('learn: too few records for a configuration, a missing column, by em on a CLG network, a word in a real column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-learn-clg-'));
  try {
    const net = `network N {
  variable D { a, b }
  variable X, Y : real
  P(D) = 0.5
  P(X) ~ Normal()
  P(Y | D, X) ~ Normal()
}
`;
    const data = (rows: string) => `data R {\n  D, X, Y\n${rows}}\n`;
    const few = data('  a, 1, 2\n  a, 2, 3.5\n  a, 3, 4.1\n  b, 1, 0\n  b, 2, 1\n');
    let result = await runIn(dir, net + few + 'learn N from R\n');
    assert.deepEqual(errorsOf(result), [
      {
        line: 16,
        message:
          'Y given D=b: 2 complete rows leave no residual variance (a regression on 1 parents needs more rows, not all on one line)',
      },
    ]);
    const none = data('  a, 1, 2\n  a, 2, 3.5\n  a, 3, 4.1\n');
    result = await runIn(dir, net + none + 'learn N from R\n');
    assert.match(errorsOf(result)[0]!.message, /^Y given D=b: 0 complete rows/);
    result = await runIn(dir, net + 'data R {\n  D, X\n  a, 1\n}\nlearn N from R\n');
    assert.match(
      errorsOf(result)[0]!.message,
      /'R' has no column Y: a network with continuous variables is learnt from a column per variable/,
    );
    result = await runIn(dir, net + few + 'learn N from R by em\n');
    assert.match(errorsOf(result)[0]!.message, /EM learns networks whose variables are all continuous/);
    result = await runIn(dir, net + few + 'query mean Y in N given X = 1\n');
    assert.match(errorsOf(result)[0]!.message, /'X' ~ Normal\(\) is learnt from data: `learn N from DATA` first/);
    // `?` in a CLG network: least squares on the complete records, said so.
    const partial = data('  a, 1, 2\n  a, 2, 3.5\n  a, 3, 4.1\n  a, ?, 5\n  b, 1, 0\n  b, 2, 1.2\n  b, 3, 1.9\n');
    result = await runIn(dir, net + partial + 'learn N from R\n');
    assert.deepEqual(errorsOf(result), []);
    assert.ok(result.diagnostics.some((d) => d.code === 'missing-values' && d.range.start.line === 17));
    const learnt = result.results.find((r): r is LearnedNetworkResult => r.kind === 'learnedNetwork')!;
    assert.equal(learnt.regressions!.Y!.configurations[0]!.records, 3);
    // A word where a number belongs: the checker's error on the cell, and nothing is learnt from it.
    result = await runIn(dir, net + data('  a, tall, 2\n') + 'learn N from R\n');
    const word = errorsOf(result);
    assert.ok(
      word.some((e) => e.line === 10),
      JSON.stringify(word),
    );
    assert.equal(result.results.filter((r) => r.kind === 'learnedNetwork').length, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
