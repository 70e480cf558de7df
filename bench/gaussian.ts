/**
 * Gaussian and conditional Gaussian learning against R's bnlearn 4.9 in one run, on bnlearn's own
 * data sets gaussian.test (5,000 × 7, continuous) and clgaussian.test (5,000 × 8, 4 discrete):
 *  - hc(score = "bic-g") on gaussian.test and hc(score = "bic-cg") on clgaussian.test: bnlearn's
 *    score of its network against ours (same scale: we also score bnlearn's DAG and must get its
 *    number), and seconds per search (ours: the default 8 climbs, and a single climb as bnlearn's);
 *  - pc.stable(test = "zf") on gaussian.test: the skeletons must be equal;
 *  - bn.fit on bnlearn's hc networks: the largest difference of the coefficients, and of the
 *    residual standard deviations (ours converted: sqrt(σ²_ML · n / (n − p − 1)), see
 *    gaussianLearning.ts), and seconds per fit.
 * bnlearn is found through R_LIBS (see docs/TESTING: `R CMD INSTALL -l LIB`); without it the
 * bench says so and stops. The data sets are exported from the package to CSV once per run, and
 * both sides read the same CSV text.
 *   R_LIBS=/work/rlib npm run bench:gaussian [-- repeats]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDiscreteText } from '../server/src/model/dataTable.js';
import { typeColumns, type HybridDataset } from '../server/src/engine/gaussian/hybridData.js';
import { searchGaussianStructure } from '../server/src/engine/gaussian/gaussianSearch.js';
import { GaussianScoreCache } from '../server/src/engine/gaussian/gaussianScore.js';
import { learnHybridNetwork } from '../server/src/engine/gaussian/hybridLearning.js';
import type { HybridCpd, HybridNetwork } from '../server/src/engine/gaussian/hybridNetwork.js';
import { check, loadAverage, summary } from './support/report.js';

const REPEATS = Number(process.argv[2] ?? 5);
const here = dirname(fileURLToPath(import.meta.url));

interface FittedNode {
  dparents: string[];
  gparents: string[];
  coefficients: number[];
  sd: number[];
}
interface PeerReply {
  hcG: { arcs: Array<[string, string]>; score: number; seconds: number };
  hcCG: { arcs: Array<[string, string]>; score: number; seconds: number };
  pcZf: { arcs: Array<[string, string]>; seconds: number };
  fitG: { seconds: number; nodes: Record<string, FittedNode> };
  fitCG: { seconds: number; nodes: Record<string, FittedNode> };
}

function rscript(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('Rscript', args, { encoding: 'utf8', env: process.env, maxBuffer: 1 << 26 });
}

const probe = rscript(['-e', 'suppressMessages(library(bnlearn)); cat(as.character(packageVersion("bnlearn")))']);
if (probe.status !== 0) {
  console.log(
    `bnlearn is not installed for Rscript (R_LIBS=${process.env.R_LIBS ?? 'unset'}): install it as docs/TESTING says ` +
      '(R CMD INSTALL -l LIB of cran/bnlearn 4.9) and run with R_LIBS=LIB; nothing to compare against.',
  );
  process.exit(0);
}
console.log(
  `bnlearn ${probe.stdout.trim()} via R_LIBS=${process.env.R_LIBS ?? '(R default)'}; ${REPEATS} repeats; load ${loadAverage()}`,
);

const dir = mkdtempSync(join(tmpdir(), 'bayes-gaussian-bench-'));
const gCsv = join(dir, 'gaussian.test.csv'),
  cgCsv = join(dir, 'clgaussian.test.csv');
const exported = rscript([
  '-e',
  `suppressMessages(library(bnlearn)); data(gaussian.test); data(clgaussian.test); options(digits = 17);` +
    `write.csv(gaussian.test, "${gCsv}", row.names = FALSE, quote = FALSE);` +
    `write.csv(clgaussian.test, "${cgCsv}", row.names = FALSE, quote = FALSE)`,
]);
if (exported.status !== 0) throw new Error(`exporting bnlearn's data sets failed: ${exported.stderr}`);
const peerRun = rscript([join(here, 'peers', 'bnlearn_gaussian.R'), gCsv, cgCsv, String(REPEATS)]);
if (peerRun.status !== 0) throw new Error(`bnlearn failed: ${peerRun.stderr}`);
const peer = JSON.parse(peerRun.stdout) as PeerReply;

const load = async (file: string) => typeColumns(await readDiscreteText(readFileSync(file, 'utf8')));
const g = await load(gCsv),
  cg = await load(cgCsv);
rmSync(dir, { recursive: true, force: true });

function perCall<T>(f: () => T): { result: T; seconds: number } {
  let result = f(); // warm
  const t0 = performance.now();
  for (let i = 0; i < REPEATS; i++) result = f();
  return { result, seconds: (performance.now() - t0) / 1000 / REPEATS };
}

function parentsOf(data: HybridDataset, arcs: ReadonlyArray<readonly [string, string]>): number[][] {
  const names = data.columns.map((c) => c.name);
  const parents = names.map(() => [] as number[]);
  for (const [from, to] of arcs) parents[names.indexOf(to)]!.push(names.indexOf(from));
  return parents;
}

const ratio = (ours: number, theirs: number) =>
  `${ours.toFixed(4)} s vs ${theirs.toFixed(4)} s (ratio ${(ours / theirs).toFixed(2)})`;

for (const [label, data, score, theirs] of [
  ['gaussian.test', g, 'bic-g', peer.hcG],
  ['clgaussian.test', cg, 'bic-cg', peer.hcCG],
] as const) {
  console.log(`\nhc(${label}, score = "${score}")`);
  const scores = new GaussianScoreCache(data);
  const theirsOurScale = scores.total(parentsOf(data, theirs.arcs));
  const ours = perCall(() => searchGaussianStructure(data, { method: 'hillclimb', score }));
  const single = perCall(() => searchGaussianStructure(data, { method: 'hillclimb', score, climbs: 1 }));
  console.log(
    `  bnlearn: ${theirs.arcs.length} arcs, score ${theirs.score.toFixed(4)}; we score its DAG ${theirsOurScale.toFixed(4)}`,
  );
  console.log(
    `  ours:    ${ours.result.parents.flat().length} arcs, score ${ours.result.score.toFixed(4)} (single climb ${single.result.score.toFixed(4)})`,
  );
  console.log(
    `  seconds per search, 8 climbs: ${ratio(ours.seconds, theirs.seconds)}; one climb: ${ratio(single.seconds, theirs.seconds)}`,
  );
  check(
    Math.abs(theirsOurScale - theirs.score) <= 1e-6 * Math.abs(theirs.score),
    `${score} of bnlearn's DAG equals bnlearn's own score`,
  );
  check(
    ours.result.score >= theirs.score - 1e-6 * Math.abs(theirs.score),
    `our ${score} hill climbing scores at least bnlearn's hc`,
  );
}

console.log('\npc.stable(gaussian.test, test = "zf"), alpha 0.05');
const pc = perCall(() => searchGaussianStructure(g, { method: 'pc', score: 'bic-g' }));
const gNames = g.columns.map((c) => c.name);
const skeleton = (pairs: Array<[string, string]>) => [...new Set(pairs.map((p) => [...p].sort().join('-')))].sort();
const ourSkeleton = skeleton(
  [...pc.result.cpdag.arcs(), ...pc.result.cpdag.edges()].map(([a, b]) => [gNames[a]!, gNames[b]!]),
);
const theirSkeleton = skeleton(peer.pcZf.arcs);
console.log(`  bnlearn: ${theirSkeleton.join(' ')}\n  ours:    ${ourSkeleton.join(' ')}`);
console.log(`  seconds per search: ${ratio(pc.seconds, peer.pcZf.seconds)}`);
check(ourSkeleton.join() === theirSkeleton.join(), "PC-stable zf gives bnlearn's skeleton");

/** bnlearn's structure as a hybrid network (parents in bnlearn's orders; placeholder numbers). */
function structureOf(
  data: HybridDataset,
  nodes: Record<string, FittedNode>,
  arcs: Array<[string, string]>,
): HybridNetwork {
  const names = data.columns.map((c) => c.name);
  const parents = parentsOf(data, arcs);
  const variables = data.columns.map((c) =>
    c.kind === 'continuous'
      ? { kind: 'continuous' as const, name: c.name }
      : { kind: 'discrete' as const, name: c.name, states: [...c.levels] },
  );
  const cpds = data.columns.map((c, v): HybridCpd => {
    if (c.kind === 'discrete')
      return { kind: 'discrete', cpt: { child: v, parents: parents[v]!, table: new Float64Array(0) } };
    const node = nodes[c.name]!;
    return {
      kind: 'gaussian',
      cpd: {
        child: v,
        discreteParents: node.dparents.map((p) => names.indexOf(p)),
        continuousParents: node.gparents.map((p) => names.indexOf(p)),
        intercepts: new Float64Array(0),
        coefficients: new Float64Array(0),
        variances: new Float64Array(0),
      },
    };
  });
  return { name: 'bnlearn', variables, cpds };
}

for (const [label, data, fit, arcs] of [
  ['gaussian.test', g, peer.fitG, peer.hcG.arcs],
  ['clgaussian.test', cg, peer.fitCG, peer.hcCG.arcs],
] as const) {
  console.log(`\nbn.fit on bnlearn's hc network of ${label}`);
  const structure = structureOf(data, fit.nodes, [...arcs]);
  const ours = perCall(() => learnHybridNetwork(structure, data));
  let coefficientGap = 0,
    sdGap = 0;
  ours.result.network.cpds.forEach((cpd, v) => {
    if (cpd.kind !== 'gaussian') return;
    const theirs = fit.nodes[data.columns[v]!.name]!;
    const c = cpd.cpd,
      m = c.continuousParents.length;
    const levels = c.discreteParents.map((p) => (data.columns[p] as { levels: readonly string[] }).levels);
    for (let j = 0; j < c.intercepts.length; j++) {
      // bnlearn's configuration j has its first discrete parent fastest, each parent's levels sorted
      // (R's factors); ours has the first slowest, levels in order of first appearance.
      let rest = j,
        d = 0;
      const states = levels.map((ours) => {
        const sorted = [...ours].sort();
        const state = sorted[rest % sorted.length]!;
        rest = Math.floor(rest / sorted.length);
        return state;
      });
      levels.forEach((ours, i) => (d = d * ours.length + ours.indexOf(states[i]!)));
      const ourCoefficients = [c.intercepts[d]!, ...Array.from({ length: m }, (_, i) => c.coefficients[d * m + i]!)];
      ourCoefficients.forEach(
        (b, i) => (coefficientGap = Math.max(coefficientGap, Math.abs(b - theirs.coefficients[j * (m + 1) + i]!))),
      );
      const n = ours.result.rows[v]![d]!;
      const sd = Math.sqrt((c.variances[d]! * n) / (n - m - 1));
      sdGap = Math.max(sdGap, Math.abs(sd - theirs.sd[j]!) / theirs.sd[j]!);
    }
  });
  console.log(
    `  largest coefficient difference ${coefficientGap.toExponential(2)}; residual sd, relative ${sdGap.toExponential(2)}`,
  );
  console.log(`  seconds per fit: ${ratio(ours.seconds, fit.seconds)}`);
  check(
    coefficientGap < 1e-9 && sdGap < 1e-9,
    `our least squares equal bn.fit's coefficients and residual sd (to 1e-9) on ${label}`,
  );
}

summary('bench:gaussian');
