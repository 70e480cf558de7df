import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { forwardSample } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import { pcStable } from '../../../server/src/engine/structure/pcStable.js';
import { cpdagOf, hammingDistance } from '../../../server/src/engine/structure/pdag.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';
import { parallelBootstrap } from '../../../server/src/cli/parallelBootstrap.js';
import { loadBif } from '../../support/networks.js';
import { bootstrapCounts, replicateSearch } from '../../../server/src/engine/structure/bootstrap.js';
import { BackgroundKnowledge } from '../../../server/src/engine/structure/backgroundKnowledge.js';
import { searchStructure } from '../../../server/src/engine/structure/search.js';
import { toCsv } from '../../support/learning.js';

const dir = mkdtempSync(join(tmpdir(), 'bayes-pc-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('bayes structure --method pc --json: arcs, edges, tests as the engine finds them; SHD', async (t) => {
  const bif = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!bif || !net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 10000, createRng(1));
  const csv = join(dir, 'asia.csv');
  writeFileSync(csv, toCsv(data));
  const io = capture();
  const args = ['structure', csv, '--method', 'pc', '--alpha', '0.01', '--reference', bif, '--json'];
  assert.equal(await main(args, io), 0, io.stderr);
  const out = JSON.parse(io.stdout);
  const direct = pcStable(data, { alpha: 0.01 });
  const names = data.attributes.map((a) => a.name);
  const named = (a: Array<[number, number]>) => a.map(([x, y]) => [names[x], names[y]]);
  assert.deepEqual(out.arcs, named(direct.graph.arcs()));
  assert.deepEqual(out.edges, named(direct.graph.edges()));
  assert.equal(out.tests, direct.tests);
  const d = hammingDistance(direct.graph, cpdagOf(net.cpts.map((c) => c.parents)));
  assert.deepEqual(out.comparison.shd, { cpdag: d.shd, skeleton: d.skeleton });
  assert.ok(d.skeleton <= 2, `skeleton SHD ${d.skeleton}`);
});

test('bayes structure --bootstrap: seeded strengths and the averaged network, alike for one seed', async (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const csv = join(dir, 'asia-small.csv');
  writeFileSync(csv, toCsv(forwardSample(net, 2000, createRng(5))));
  const runOnce = async (seed: string) => {
    const io = capture();
    const args = ['structure', csv, '--method', 'hillclimb', '--bootstrap', '12', '--seed', seed, '--json'];
    assert.equal(await main(args, io), 0, io.stderr);
    return JSON.parse(io.stdout);
  };
  const a = await runOnce('1'),
    b = await runOnce('1'),
    c = await runOnce('2');
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.strength, c.strength);
  assert.equal(a.replicates, 12);
  for (const s of a.strength) {
    assert.ok(s.strength > 0 && s.strength <= 1 && s.direction >= 0 && s.direction <= 1);
    // Strengths are counts of 12 replicates; directions count undirected edges half.
    assert.ok(Math.abs(s.strength * 12 - Math.round(s.strength * 12)) < 1e-9);
    const back = a.strength.find((x: { from: string; to: string }) => x.from === s.to && x.to === s.from);
    assert.equal(back.strength, s.strength);
    assert.ok(Math.abs(back.direction + s.direction - 1) < 1e-12);
  }
  for (const [f, to] of a.arcs) {
    const s = a.strength.find((x: { from: string; to: string }) => x.from === f && x.to === to);
    assert.ok((s.strength > a.threshold || s.strength === 1) && s.direction > 0.5);
  }
  const io = capture();
  assert.equal(
    await main(['structure', csv, '--method', 'pc', '--bootstrap', '3', '--alpha', '0.05'], io),
    0,
    io.stderr,
  );
  assert.match(io.stdout, /arc strength over 3 bootstrap replicates of pc \(seed 1\)/);
});

test('bayes structure: background knowledge flags; usage errors for misplaced or contradictory options', async (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const csv = join(dir, 'asia-bk.csv');
  writeFileSync(csv, toCsv(forwardSample(net, 2000, createRng(6))));
  let io = capture();
  const knowledge = ['--require', 'asia->dysp', '--forbid', 'smoke->lung,lung->smoke'];
  assert.equal(await main(['structure', csv, '--method', 'hillclimb', ...knowledge, '--json'], io), 0, io.stderr);
  const hc = JSON.parse(io.stdout);
  assert.ok(hc.arcs.some(([f, to]: string[]) => f === 'asia' && to === 'dysp'));
  assert.ok(!hc.arcs.some(([f, to]: string[]) => [f, to].sort().join() === 'lung,smoke'));
  io = capture();
  const tiers = ['--tiers', 'xray,dysp;asia,tub,smoke,lung,bronc,either'];
  assert.equal(await main(['structure', csv, '--method', 'pc', ...tiers, '--json'], io), 0, io.stderr);
  const pc = JSON.parse(io.stdout);
  const late = ['asia', 'tub', 'smoke', 'lung', 'bronc', 'either'];
  const backwards = pc.arcs.filter(([f, to]: string[]) => late.includes(f) && (to === 'xray' || to === 'dysp'));
  assert.deepEqual(backwards, []);
  for (const [args, message] of [
    [['--method', 'pc', '--order', 'asia'], /--order does not apply to --method pc/],
    [['--method', 'hillclimb', '--alpha', '0.1'], /--alpha does not apply to --method hillclimb/],
    [['--method', 'pc', '--max-parents', '2'], /--max-parents does not apply to --method pc/],
    [['--method', 'pc', '--alpha', '2'], /--alpha must be below 1/],
    [['--method', 'pc', '--test', 'fisher'], /--test must be g2/],
    [['--method', 'pc', '--require', 'asia-tub'], /--require takes arcs FROM->TO/],
    [['--method', 'pc', '--require', 'asia->nope'], /--require names 'nope', which is not a column/],
    [
      ['--method', 'pc', '--require', 'asia->tub', '--forbid', 'asia->tub'],
      /asia -> tub is both required and forbidden/,
    ],
    [['--method', 'pc', '--seed', '3'], /--seed does not apply to --method pc/],
    [['--method', 'hillclimb', '--bootstrap', '0'], /--bootstrap must be an integer ≥ 1/],
    [
      ['--method', 'hillclimb', '--bootstrap', '5', '--reference', 'x.bif'],
      /--reference does not apply to --bootstrap/,
    ],
  ] as const) {
    io = capture();
    assert.equal(await main(['structure', csv, ...args], io), 2, args.join(' '));
    assert.match(io.stderr, message);
  }
});

test('the bootstrap on two worker threads gives exactly the counts of one thread', async (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 1500, createRng(9));
  const spec = { method: 'hillclimb' as const, score: 'bic' as const };
  const knowledge = { forbid: [[0, 1]] as Array<[number, number]> };
  const workerPath = join(repoRoot, 'test', 'support', 'tsxBootstrapWorker.mjs');
  const two = await parallelBootstrap(data, spec, knowledge, 9, 3, { workers: 2, workerPath });
  const one = await parallelBootstrap(data, spec, knowledge, 9, 3, { workers: 1 });
  assert.equal(two.replicates, 9);
  assert.deepEqual(two.halves, one.halves);
  assert.ok(one.halves.some((x) => x > 0));
  assert.equal(one.halves[0 * 8 + 1], 0); // asia -> tub forbidden in every replicate
  // Each replicate's search also climbs from the network learnt on all the data, with the knowledge.
  const bk = new BackgroundKnowledge(
    8,
    knowledge,
    data.attributes.map((a) => a.name),
  );
  const perReplicate = replicateSearch(data, { ...spec, knowledge: bk });
  const direct = bootstrapCounts(data, (d) => searchStructure(d, perReplicate).cpdag, { replicates: 9, seed: 3 });
  assert.deepEqual(one.halves, direct.counts.halves);
});
