/**
 * Structure learning at full size (npm run test:slow): 10,000 ALARM records (forward sampling,
 * seed 1). PC-stable at α = 0.01 must find the skeleton within a few edges; the bootstrap of
 * hill climbing (BIC, 40 replicates) must give the true arcs the single
 * search finds a strength ≥ ½, and its averaged network must be no further from the true CPDAG
 * than the single search plus 2 (the figures of issue #20, reported as diagnostics).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardSample } from '../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../server/src/engine/random.js';
import { pcStable } from '../../server/src/engine/structure/pcStable.js';
import { Pdag, cpdagOf, hammingDistance } from '../../server/src/engine/structure/pdag.js';
import { searchStructure } from '../../server/src/engine/structure/search.js';
import {
  arcStrengths,
  averagedNetwork,
  bootstrapCounts,
  strengthThreshold,
} from '../../server/src/engine/structure/bootstrap.js';
import { NO_SHARED } from '../support/shared.js';
import { loadBif } from '../support/networks.js';

test('ALARM, 10,000 records: PC skeleton, bootstrap strengths and the averaged network', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 10000, createRng(1));
  const truth = cpdagOf(net.cpts.map((c) => c.parents));
  let started = performance.now();
  const pc = pcStable(data, { alpha: 0.01 });
  const pcDistance = hammingDistance(pc.graph, truth);
  const pcSeconds = ((performance.now() - started) / 1000).toFixed(1);
  t.diagnostic(
    `PC: skeleton SHD ${pcDistance.skeleton}, CPDAG SHD ${pcDistance.shd}, ${pc.tests} tests, ${pcSeconds} s`,
  );
  assert.ok(pcDistance.skeleton <= 6, `PC skeleton SHD ${pcDistance.skeleton}`);

  const spec = { method: 'hillclimb' as const, score: 'bic' as const };
  const single = searchStructure(data, spec);
  started = performance.now();
  const { counts } = bootstrapCounts(data, (d) => searchStructure(d, spec).cpdag, { replicates: 40, seed: 1 });
  const strengths = arcStrengths(counts);
  const weak = single.parents
    .flatMap((ps, v) => ps.map((p) => [p, v] as const))
    .filter(([a, b]) => truth.adjacent(a, b))
    .map(([a, b]) => strengths.find((s) => s.from === a && s.to === b)!)
    .filter((s) => s.strength < 0.5);
  assert.deepEqual(
    weak.map((s) => `${net.variables[s.from]!.name} -> ${net.variables[s.to]!.name} ${s.strength}`),
    [],
  );
  const threshold = strengthThreshold(strengths.map((s) => s.strength));
  const avg = averagedNetwork(net.variables.length, strengths, threshold);
  const g = new Pdag(net.variables.length);
  avg.arcs.forEach(([a, b]) => g.setArc(a, b));
  avg.edges.forEach(([a, b]) => g.setEdge(a, b));
  const dAvg = hammingDistance(g, truth),
    dSingle = hammingDistance(single.cpdag, truth);
  const bootSeconds = ((performance.now() - started) / 1000).toFixed(1);
  t.diagnostic(
    `bootstrap 40 × hill climbing: ${bootSeconds} s; threshold ${threshold}; ` +
      `SHD averaged ${dAvg.shd} (skeleton ${dAvg.skeleton}) vs single ${dSingle.shd} (skeleton ${dSingle.skeleton})`,
  );
  assert.ok(dAvg.shd <= dSingle.shd + 2, `averaged ${dAvg.shd} vs single ${dSingle.shd}`);
});
