/**
 * PC-stable and the bootstrap on ALARM (37 nodes, 46 arcs): records forward-sampled from
 * bnlearn's alarm.bif (seed 1) at 1,000 / 5,000 / 10,000 rows.
 *  - PC-stable (pcStable.ts) with G² and χ² at α = 0.01: seconds, independence tests, and the
 *    structural Hamming distances to the true network — between the skeletons and between the
 *    CPDAGs (bnlearn's `shd`);
 *  - hill climbing with BIC for comparison (its CPDAG against the truth);
 *  - the bootstrap of hill climbing at 10,000 rows (R replicates, seed 1) in this thread: seconds
 *    and the averaged network's distances. `bayes structure --bootstrap` splits the replicates
 *    over two worker threads (same counts).
 * No peer here: a comparison with pgmpy's PC is for bench/structure.ts.
 *   npm run bench:structure-pc [-- replicates]
 */
import { forwardSample } from '../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../server/src/engine/random.js';
import { pcStable } from '../server/src/engine/structure/pcStable.js';
import { Pdag, cpdagOf, hammingDistance } from '../server/src/engine/structure/pdag.js';
import { searchStructure } from '../server/src/engine/structure/search.js';
import {
  arcStrengths,
  averagedNetwork,
  bootstrapCounts,
  strengthThreshold,
} from '../server/src/engine/structure/bootstrap.js';
import { loadBif } from '../test/support/networks.js';
import { NO_SHARED } from '../test/support/shared.js';

const SIZES = [1000, 5000, 10000];
const REPLICATES = Number(process.argv[2] ?? 20);

const net = loadBif('alarm');
if (!net) {
  console.log(NO_SHARED);
  process.exit(0);
}
const truth = cpdagOf(net.cpts.map((c) => c.parents));

function seconds<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, (performance.now() - t0) / 1000];
}

const rows: string[] = [
  '| records | method | seconds | tests | skeleton SHD | CPDAG SHD |',
  '| --- | --- | --- | --- | --- | --- |',
];
for (const n of SIZES) {
  const data = forwardSample(net, n, createRng(1));
  for (const test of ['g2', 'x2'] as const) {
    const [r, s] = seconds(() => pcStable(data, { alpha: 0.01, test }));
    const d = hammingDistance(r.graph, truth);
    rows.push(`| ${n} | PC-stable ${test} | ${s.toFixed(2)} | ${r.tests} | ${d.skeleton} | ${d.shd} |`);
  }
  const [hc, s] = seconds(() => searchStructure(data, { method: 'hillclimb', score: 'bic' }));
  const d = hammingDistance(hc.cpdag, truth);
  rows.push(`| ${n} | hill climbing (BIC) | ${s.toFixed(2)} | – | ${d.skeleton} | ${d.shd} |`);
}
const data = forwardSample(net, 10000, createRng(1));
const spec = { method: 'hillclimb' as const, score: 'bic' as const };
const learn = (d: typeof data) => searchStructure(d, spec).cpdag;
const [{ counts }, s] = seconds(() => bootstrapCounts(data, learn, { replicates: REPLICATES, seed: 1 }));
const strengths = arcStrengths(counts);
const threshold = strengthThreshold(strengths.map((x) => x.strength));
const avg = averagedNetwork(net.variables.length, strengths, threshold);
const g = new Pdag(net.variables.length);
avg.arcs.forEach(([a, b]) => g.setArc(a, b));
avg.edges.forEach(([a, b]) => g.setEdge(a, b));
const d = hammingDistance(g, truth);
const what = `bootstrap ${REPLICATES} × hill climbing, averaged (threshold ${threshold.toFixed(3)})`;
rows.push(`| 10000 | ${what} | ${s.toFixed(2)} | – | ${d.skeleton} | ${d.shd} |`);
console.log(rows.join('\n'));
