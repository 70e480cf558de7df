/**
 * Structure learning on ALARM (37 nodes, 46 arcs) against pomegranate 0.14: records forward-sampled
 * from bnlearn's alarm.bif (seed 1) at 1,000 / 5,000 / 20,000 rows, each written once as a CSV of
 * state codes that every side reads.
 *  - ours: hill climbing over DAGs with BIC (hillClimb.ts): one climb (to the first local maximum,
 *    ties to the first move in order), the default best of 8 climbs (the later ones breaking ties
 *    at random), tabu search with bnlearn's defaults (tabu list 10, patience 10) and with a longer memory
 *    (50, patience 100: a list of 10 lets the walk cycle back into the basin at 20,000 records),
 *    and 10 random restarts of 5 random moves (seed 1); and K2 with the true (breadth-first
 *    topological) order (k2.ts);
 *  - pomegranate: BayesianNetwork.from_samples with algorithm 'greedy' — with its default
 *    max_parents, log₂(2N / log₂ N) (7 to 11 here), and with max_parents 4, ALARM's largest
 *    in-degree, so the true DAG is within its reach — and 'chow-liu' (a tree; 'exact' is out of
 *    reach on 37 nodes). Each run is killed after PEER_LIMIT_S and reported as "did not finish".
 * Per side: seconds (one cold run each; pomegranate timed inside Python around from_samples),
 * arcs, missing / extra / reversed arcs against the true DAG (compareStructures) and their sum
 * (the structural Hamming distance), and the BIC of the learned DAG by OUR scorer on the same
 * records, so scores compare; the true DAG's BIC heads each block. pomegranate's greedy objective
 * is the same BIC in bits (log₂ likelihood − log₂ N / 2 per parameter), so its DAG's BIC is a fair
 * measure of its search.
 * Then pgmpy (v0.1.23 from .cache/pgmpy, see bench/peers/pgmpy_setup.sh; skipped with a message when
 * absent) on ALARM 10,000 records (seed 1), one alternating run (ours, pgmpy, then pgmpy, ours):
 *  - PC: our PC-stable with χ² at α = 0.01 vs pgmpy's PC (variant "stable", ci_test "chi_square",
 *    same α, n_jobs 1): skeleton SHD against the true network, seconds; goal ≥ 10× faster and no worse;
 *  - hill climbing with BIC (the default: best of 8 climbs) vs pgmpy's HillClimbSearch(BicScore): BIC
 *    of both DAGs by our scorer, seconds; goal: the same score or better, ≥ 10× faster. pgmpy breaks
 *    ties in the order of a Python set, which follows the string hash seed: it runs with
 *    PYTHONHASHSEED=0 so that its answer repeats;
 *  - the bootstrap of 200 hill-climbing replicates as `bayes structure --bootstrap 200` runs it
 *    (parallelBootstrap: the whole-data search, then two worker threads; the records already in
 *    memory, so reading the CSV is not timed): wall clock, goal under a minute.
 * pgmpy's seconds are timed inside Python around its estimate call; ours in this process. A missed
 * goal prints `goal FAILED` and the run exits with code 1 (bench/support/report.ts).
 *   npm run bench:structure [-- limit-seconds] [--pgmpy]   (--pgmpy: the pgmpy part only)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hillClimb, type HillClimbOptions } from '../server/src/engine/structure/hillClimb.js';
import { k2 } from '../server/src/engine/structure/k2.js';
import { compareStructures, ScoreCache } from '../server/src/engine/structure/structureScore.js';
import { forwardSample } from '../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../server/src/engine/random.js';
import { topologicalOrder } from '../server/src/engine/network.js';
import type { CategoricalDataset } from '../server/src/engine/categoricalData.js';
import { loadBif } from '../test/support/networks.js';
import { NO_SHARED } from '../test/support/shared.js';
import { PYTHON } from '../test/support/python.js';
import { pgmpyHillClimb, pgmpyMissing, pgmpyPcSkeleton, writeCodesCsv } from '../test/support/pgmpy.js';
import { pcStable } from '../server/src/engine/structure/pcStable.js';
import { Pdag, cpdagOf, hammingDistance } from '../server/src/engine/structure/pdag.js';
import { searchStructure } from '../server/src/engine/structure/search.js';
import { arcStrengths, averagedNetwork, strengthThreshold } from '../server/src/engine/structure/bootstrap.js';
import { parallelBootstrap } from '../server/src/cli/parallelBootstrap.js';
import { check, loadAverage, summary } from './support/report.js';

const SIZES = [1000, 5000, 20000];
const PEER_LIMIT_S = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 300);
const PGMPY_ONLY = process.argv.includes('--pgmpy');
const PEER = join(import.meta.dirname, 'peers', 'pomegranate_structure.py');

interface Learned {
  seconds: number;
  parents: number[][];
}
type Outcome = Learned | string;

const net = loadBif('alarm');
if (!net) {
  console.log(NO_SHARED);
  process.exit(0);
}
const truth = net.cpts.map((c) => c.parents);
const order = (() => {
  const t = topologicalOrder(net);
  if (!('order' in t)) throw new Error('alarm has a cycle');
  return t.order;
})();

function timed(learn: () => number[][]): Learned {
  const t0 = performance.now();
  const parents = learn();
  return { seconds: (performance.now() - t0) / 1000, parents };
}

/** The CSV every side reads: a header of names, then one row of state codes per record. */
function writeCsv(data: CategoricalDataset, file: string): void {
  const lines = [data.attributes.map((a) => a.name).join(',')];
  for (let r = 0; r < data.rowCount; r++) lines.push(data.columns.map((c) => c[r]).join(','));
  writeFileSync(file, lines.join('\n') + '\n');
}

/** pomegranate's from_samples on the CSV, or why it has no answer (absent, failed, over the limit). */
function pomegranate(file: string, args: string[]): Outcome {
  const r = spawnSync(PYTHON, [PEER, file, ...args], {
    encoding: 'utf8',
    timeout: PEER_LIMIT_S * 1000,
    killSignal: 'SIGKILL',
  });
  if (r.error && 'code' in r.error && r.error.code === 'ETIMEDOUT') return `did not finish in ${PEER_LIMIT_S} s`;
  // Its C code does not check allocations: under the memory cap a failed one is a segfault.
  if (r.signal) return `killed by ${r.signal} (the peer's memory is capped at 8 GB)`;
  if (r.status !== 0) return `failed (${(r.stderr || String(r.error)).trim().split('\n').pop()})`;
  const out = JSON.parse(r.stdout) as Learned | { error: string };
  return 'error' in out ? out.error : out;
}

function row(label: string, outcome: Outcome, scores: ScoreCache, trueBic: number): string {
  if (typeof outcome === 'string') return `  ${label.padEnd(36)} ${outcome}`;
  const d = compareStructures(outcome.parents, truth);
  const arcs = outcome.parents.reduce((s, ps) => s + ps.length, 0);
  const bic = scores.total(outcome.parents);
  const cells = [
    outcome.seconds.toFixed(3),
    arcs,
    d.missing.length,
    d.extra.length,
    d.reversed.length,
    d.missing.length + d.extra.length + d.reversed.length,
    bic.toFixed(1),
    (bic - trueBic).toFixed(1),
  ];
  return `  ${label.padEnd(36)} ${cells.map((c, i) => String(c).padStart(WIDTHS[i]!)).join(' ')}`;
}

/** pomegranate's runs: label and the peer script's arguments (algorithm, max_parents). */
const PEER_RUNS: Array<[string, string[]]> = [
  ['pomegranate: greedy', ['greedy']],
  ['pomegranate: greedy, max_parents 4', ['greedy', '4']],
  ['pomegranate: chow-liu', ['chow-liu']],
];

/** Our hill-climbing runs: label and options (tabu list length, restarts, perturbation). */
const OUR_CLIMBS: Array<[string, HillClimbOptions]> = [
  ['ours: hc, one climb', { climbs: 1 }],
  ['ours: hc, 8 climbs (default)', {}],
  ['ours: tabu search (10, patience 10)', { tabu: 10, patience: 10 }],
  ['ours: tabu search (50, patience 100)', { tabu: 50, patience: 100 }],
  ['ours: hc, 10 restarts × 5 moves', { restarts: 10, perturb: 5, seed: 1 }],
];

const HEADINGS = ['seconds', 'arcs', 'missing', 'extra', 'reversed', 'SHD', 'BIC', 'BIC − true'];
const WIDTHS = [9, 5, 8, 6, 9, 5, 12, 11];

const dir = mkdtempSync(join(tmpdir(), 'bench-structure-'));
try {
  const peerMissing = spawnSync(PYTHON, ['-c', 'import pomegranate'], { encoding: 'utf8' }).status !== 0;
  for (const rows of PGMPY_ONLY ? [] : SIZES) {
    const data = forwardSample(net, rows, createRng(1));
    const file = join(dir, `alarm-${rows}.csv`);
    writeCsv(data, file);
    const scores = new ScoreCache(data, { score: 'bic' });
    const trueBic = scores.total(truth);
    console.log(
      `\nALARM, ${rows} records (seed 1); true DAG: ${truth.flat().length} arcs, BIC ${trueBic.toFixed(1)} (our scorer, nats)`,
    );
    console.log(`  ${'side'.padEnd(36)} ${HEADINGS.map((h, i) => h.padStart(WIDTHS[i]!)).join(' ')}`);
    for (const [label, options] of OUR_CLIMBS)
      console.log(
        row(
          label,
          timed(() => hillClimb(data, { score: 'bic', ...options }).parents),
          scores,
          trueBic,
        ),
      );
    console.log(
      row(
        'ours: K2 (K2 metric), true order',
        timed(() => k2(data, { order }).parents),
        scores,
        trueBic,
      ),
    );
    for (const [label, args] of PEER_RUNS) {
      const outcome = peerMissing
        ? `unavailable: ${PYTHON} cannot import pomegranate (install python3-pomegranate)`
        : pomegranate(file, args);
      console.log(row(label, outcome, scores, trueBic));
    }
  }
  if (!PGMPY_ONLY)
    console.log(
      '\nBIC is score-equivalent: reversing an arc within a Markov equivalence class (no v-structure made or broken)\n' +
        'leaves it unchanged, so a BIC search can count reversed arcs its data cannot orient; K2 gets directions from the order.',
    );
  await againstPgmpy(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
summary('bench:structure');

/** Our skeleton's SHD against the true network's, from a list of undirected edges. */
function skeletonShd(edges: ReadonlyArray<readonly [number, number]>, truthGraph: Pdag): number {
  const g = new Pdag(net!.variables.length);
  edges.forEach(([a, b]) => g.setEdge(a, b));
  return hammingDistance(g, truthGraph).skeleton;
}

/** pgmpy against ours on ALARM 10,000 records (seed 1): PC, hill climbing with BIC, the bootstrap. */
async function againstPgmpy(dir: string): Promise<void> {
  const rows = 10000,
    alpha = 0.01;
  const data = forwardSample(net!, rows, createRng(1));
  const file = join(dir, `alarm-${rows}-pgmpy.csv`);
  writeCodesCsv(data, file);
  const truthGraph = cpdagOf(truth);
  const scores = new ScoreCache(data, { score: 'bic' });
  console.log(`\nALARM, ${rows} records (seed 1) against pgmpy; true DAG BIC ${scores.total(truth).toFixed(1)}`);
  const missing = pgmpyMissing();
  if (missing) console.log(`  pgmpy skipped: ${missing}`);

  const ourPc = (): { seconds: number; shd: number; tests: number } => {
    const t0 = performance.now();
    const r = pcStable(data, { alpha, test: 'x2' });
    const seconds = (performance.now() - t0) / 1000;
    const edges: Array<[number, number]> = [];
    for (let a = 0; a < data.attributes.length; a++) {
      for (let b = a + 1; b < data.attributes.length; b++) if (r.graph.adjacent(a, b)) edges.push([a, b]);
    }
    return { seconds, shd: skeletonShd(edges, truthGraph), tests: r.tests };
  };
  const ourHc = (): { seconds: number; bic: number } => {
    const t0 = performance.now();
    const found = searchStructure(data, { method: 'hillclimb', score: 'bic' });
    return { seconds: (performance.now() - t0) / 1000, bic: scores.total(found.parents) };
  };
  // One alternating run: PC ours then pgmpy, hill climbing pgmpy then ours.
  const pc = ourPc();
  const theirPc = missing ? undefined : pgmpyPcSkeleton(file, alpha);
  const theirHc = missing ? undefined : pgmpyHillClimb(file);
  const hc = ourHc();

  console.log(
    `  PC-stable, χ², α = ${alpha}: ours ${pc.seconds.toFixed(2)} s, skeleton SHD ${pc.shd} ` + `(${pc.tests} tests)`,
  );
  if (theirPc) {
    const shd = skeletonShd(theirPc.edges, truthGraph),
      ratio = theirPc.seconds / pc.seconds;
    console.log(
      `  pgmpy PC (stable, chi_square): ${theirPc.seconds.toFixed(2)} s, skeleton SHD ${shd}; ` +
        `pgmpy/ours time ${ratio.toFixed(1)}×`,
    );
    check(pc.shd <= shd, `PC skeleton SHD ${pc.shd} ≤ pgmpy's ${shd}`);
    check(ratio >= 10, `PC ${ratio.toFixed(1)}× faster than pgmpy (≥ 10×)`);
  }
  console.log(`  hill climbing, BIC: ours ${hc.seconds.toFixed(2)} s, BIC ${hc.bic.toFixed(1)}`);
  if (theirHc) {
    const bic = scores.total(theirHc.parents),
      ratio = theirHc.seconds / hc.seconds;
    console.log(
      `  pgmpy HillClimbSearch(BicScore): ${theirHc.seconds.toFixed(2)} s, BIC ${bic.toFixed(1)} ` +
        `(our scorer); pgmpy/ours time ${ratio.toFixed(1)}×`,
    );
    check(
      hc.bic >= bic - 1e-6 * Math.abs(bic),
      `hill-climbing BIC ${hc.bic.toFixed(1)} ≥ pgmpy's ${bic.toFixed(1)} (to 1e-6 relative)`,
    );
    check(ratio >= 10, `hill climbing ${ratio.toFixed(1)}× faster than pgmpy (≥ 10×)`);
  }

  const workerPath = join(import.meta.dirname, '..', 'dist', 'bootstrapWorker.cjs');
  if (!existsSync(workerPath)) {
    check(false, `bootstrap timed (${workerPath} is absent: npm run build first)`);
    return;
  }
  const t0 = performance.now(),
    cpu0 = process.cpuUsage();
  const counts = await parallelBootstrap(data, { method: 'hillclimb', score: 'bic' }, undefined, 200, 1, {
    workers: 2,
    workerPath,
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0),
    cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const strengths = arcStrengths(counts);
  const threshold = strengthThreshold(strengths.map((x) => x.strength));
  const avg = averagedNetwork(net!.variables.length, strengths, threshold);
  const g = new Pdag(net!.variables.length);
  avg.arcs.forEach(([a, b]) => g.setArc(a, b));
  avg.edges.forEach(([a, b]) => g.setEdge(a, b));
  const d = hammingDistance(g, truthGraph);
  console.log(
    `  bootstrap, 200 × hill climbing (two worker threads): ${seconds.toFixed(1)} s wall clock, ` +
      `${cpuSeconds.toFixed(1)} s CPU (both threads; load average ${loadAverage()} on ${availableParallelism()} cores); ` +
      `averaged network at threshold ${threshold.toFixed(3)}: CPDAG SHD ${d.shd} (skeleton ${d.skeleton})`,
  );
  check(seconds < 60, `bootstrap of 200 replicates in ${seconds.toFixed(1)} s wall clock (< 60 s)`);
}
