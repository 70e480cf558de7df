import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import type { HybridNetwork } from '../../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridDataset } from '../../../server/src/engine/gaussian/hybridData.js';
import { GaussianScoreCache } from '../../../server/src/engine/gaussian/gaussianScore.js';
import { searchGaussianStructure } from '../../../server/src/engine/gaussian/gaussianSearch.js';
import { regress } from '../../../server/src/engine/gaussian/regression.js';
import { writeHuginHybrid, readHuginHybrid } from '../../../server/src/model/hugin.js';
import { randomHybridNetwork } from '../../support/hybridNetworks.js';
import { sampleDataset, withMissing } from '../../support/gaussianData.js';

/** The data as CSV, every number printed to round-trip. */
function csvOf(data: HybridDataset): string {
  const cell = (c: HybridDataset['columns'][number], r: number) =>
    c.kind === 'continuous' ? (Number.isNaN(c.values[r]!) ? '?' : String(c.values[r]!)) : c.levels[c.codes[r]!]!;
  const lines = [data.columns.map((c) => c.name).join(',')];
  for (let r = 0; r < data.rowCount; r++) lines.push(data.columns.map((c) => cell(c, r)).join(','));
  return lines.join('\n') + '\n';
}

const dirs: string[] = [];
function file(name: string, text: string): string {
  const t = tempFile(name, text);
  dirs.push(t.dir);
  return t.file;
}
test.after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture();
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

const gaussian = randomHybridNetwork({ continuous: 6, maxParents: 2, seed: 31 });
const clg = randomHybridNetwork({ continuous: 4, discrete: 2, maxParents: 2, seed: 12 });

test('bayes structure --score bic-g / bic-cg --json: the engine search, its score on bnlearn scale, arcs by name', async () => {
  for (const [net, score] of [
    [gaussian, 'bic-g'],
    [clg, 'bic-cg'],
  ] as const) {
    const data = sampleDataset(net, 3000, 1);
    const csv = file('rows.csv', csvOf(data));
    const r = await run(['structure', csv, '--method', 'hillclimb', '--score', score, '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    const direct = searchGaussianStructure(data, { method: 'hillclimb', score });
    const names = data.columns.map((c) => c.name);
    assert.equal(out.scoreName, score);
    assert.ok(Math.abs(out.score - direct.score) < 1e-9 * Math.abs(direct.score));
    assert.deepEqual(
      out.arcs,
      direct.parents.flatMap((ps, v) => ps.map((p) => [names[p], names[v]])),
    );
    assert.ok(Math.abs(out.score - new GaussianScoreCache(data).total(direct.parents)) < 1e-6);
  }
});

test('bayes structure --method pc --test zf: edges and arcs of the engine CPDAG; zf needs numeric columns', async () => {
  const data = sampleDataset(gaussian, 2000, 2);
  const csv = file('rows.csv', csvOf(data));
  const r = await run(['structure', csv, '--method', 'pc', '--test', 'zf', '--alpha', '0.01', '--json']);
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  const direct = searchGaussianStructure(data, { method: 'pc', score: 'bic-g', alpha: 0.01 });
  const names = data.columns.map((c) => c.name);
  const named = (a: Array<[number, number]>) => a.map(([x, y]) => [names[x], names[y]]);
  assert.deepEqual(out.arcs, named(direct.cpdag.arcs()));
  assert.deepEqual(out.edges, named(direct.cpdag.edges()));
  assert.equal(out.test, 'zf');
  assert.equal(out.tests, direct.tests);
  const mixed = file('mixed.csv', csvOf(sampleDataset(clg, 200, 2)));
  const bad = await run(['structure', mixed, '--method', 'pc', '--test', 'zf']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /Fisher's z tests continuous columns, but 'D0' is not numeric/);
  const g = await run(['structure', mixed, '--method', 'hillclimb', '--score', 'bic-g']);
  assert.equal(g.code, 1);
  assert.match(g.err, /bic-g scores Gaussian networks, but 'D0', 'D1' are not numeric: use bic-cg/);
});

test('bayes structure: a numeric column is continuous unless --discrete says otherwise', async () => {
  // D0's states are renamed 0/1/…: numeric, so continuous unless forced.
  const data = sampleDataset(clg, 3000, 3);
  const numeric: HybridDataset = {
    ...data,
    columns: data.columns.map((c) => (c.kind === 'discrete' ? { ...c, levels: c.levels.map((_, i) => String(i)) } : c)),
  };
  const csv = file('coded.csv', csvOf(numeric));
  const asNumbers = JSON.parse(
    (await run(['structure', csv, '--method', 'hillclimb', '--score', 'bic-g', '--json'])).out,
  );
  const forced = await run([
    'structure',
    csv,
    '--method',
    'hillclimb',
    '--score',
    'bic-cg',
    '--discrete',
    'D0,D1',
    '--json',
  ]);
  assert.equal(forced.code, 0, forced.err);
  const direct = searchGaussianStructure(data, { method: 'hillclimb', score: 'bic-cg' });
  assert.ok(Math.abs(JSON.parse(forced.out).score - direct.score) < 1e-9 * Math.abs(direct.score));
  assert.notEqual(asNumbers.score, JSON.parse(forced.out).score);
  const wrong = await run(['structure', csv, '--method', 'hillclimb', '--score', 'bic-cg', '--discrete', 'Nope']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.err, /'Nope' is not a column/);
  const constant = file('constant.csv', 'X,Y\n1,2\n1,3.5\n1,4\n');
  const flat = await run(['structure', constant, '--method', 'hillclimb', '--score', 'bic-g']);
  assert.equal(flat.code, 1);
  assert.match(flat.err, /column 'X' is 1 in every row: a continuous node needs spread/);
  const usage = await run(['structure', csv, '--method', 'hillclimb', '--score', 'bic-g', '--bootstrap', '5']);
  assert.notEqual(usage.code, 0);
  assert.match(usage.err, /--bootstrap does not apply to continuous data/);
});

/** The network's structure with placeholder numbers, as a NET file. */
function netFile(net: HybridNetwork): string {
  return file('net.net', writeHuginHybrid(net));
}

test('bayes learn NET.net --data: least squares per configuration, --out writes a NET the reader takes back', async () => {
  const data = sampleDataset(clg, 4000, 5);
  const csv = file('rows.csv', csvOf(data));
  const net = netFile(clg);
  const out = join(dirname(net), 'learned.net');
  const r = await run(['learn', net, '--data', csv, '--json', '--out', out]);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  const names = clg.variables.map((v) => v.name);
  clg.cpds.forEach((cpd, v) => {
    if (cpd.kind !== 'gaussian') return;
    const col = (i: number) => (data.columns[i] as { values: Float64Array }).values;
    const { discreteParents, continuousParents } = cpd.cpd;
    const node = json.nodes[names[v]!];
    node.configurations.forEach(
      (c: {
        given: Record<string, string>;
        intercept: number;
        variance: number;
        coefficients: Record<string, number>;
        rows: number;
      }) => {
        const rows = Int32Array.from({ length: data.rowCount }, (_, i) => i).filter((i) =>
          discreteParents.every((p) => {
            const d = data.columns[p] as { levels: readonly string[]; codes: Int32Array };
            return d.levels[d.codes[i]!] === c.given[names[p]!];
          }),
        );
        const fit = regress(col(v), continuousParents.map(col), rows);
        assert.equal(c.rows, rows.length);
        assert.ok(Math.abs(c.intercept - fit.intercept) < 1e-9 * Math.max(1, Math.abs(fit.intercept)));
        continuousParents.forEach((p, j) =>
          assert.ok(Math.abs(c.coefficients[names[p]!]! - fit.coefficients[j]!) < 1e-9),
        );
        assert.ok(Math.abs(c.variance - fit.rss / rows.length) < 1e-12 * (1 + fit.rss));
      },
    );
  });
  const back = readHuginHybrid(readFileSync(out, 'utf8'));
  assert.ok('hybrid' in back);
  const again = await run(['learn', out, '--data', csv, '--json']);
  assert.deepEqual(JSON.parse(again.out).nodes, json.nodes);
});

test('bayes learn on a Gaussian network with missing values runs EM (monotone, reported); on a CLG network EM is refused', async () => {
  const data = withMissing(sampleDataset(gaussian, 1500, 6), [0, 1, 2, 3, 4, 5], 0.15, 3);
  const csv = file('rows.csv', csvOf(data));
  const r = await run(['learn', netFile(gaussian), '--data', csv, '--json', '--seed', '3']);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  assert.equal(json.method, 'em');
  assert.ok(json.converged);
  assert.ok(Number.isFinite(json.logLikelihood));
  const clgCsv = file('clg.csv', csvOf(sampleDataset(clg, 500, 1)));
  const refused = await run(['learn', netFile(clg), '--data', clgCsv, '--method', 'em']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /EM with missing values learns Gaussian networks/);
  const prior = await run(['learn', netFile(clg), '--data', clgCsv, '--prior', 'nig=1,2,x']);
  assert.notEqual(prior.code, 0);
  assert.match(prior.err, /nig=λ,a,b with positive numbers/);
});
