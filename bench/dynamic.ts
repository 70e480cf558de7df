/**
 * Networks over time (#30): filtering + smoothing 10⁴ steps of a network of 20 variables per slice
 * (4 carried from step to step, the others observed or hidden within the slice), and the memory
 * of filtering at 10³, 10⁴ and 10⁵ steps (peak RSS of a fresh process each, streaming findings).
 * Peers, each in the same run:
 * - pgmpy v0.1.23's DBNInference (bench/peers/pgmpy_dbn.py; .cache/pgmpy on PYTHONPATH, see
 *   bench/peers/pgmpy_setup.sh; skipped with a message when absent): forward_inference (filtered)
 *   then backward_inference (smoothed) over every unobserved variable of every step, on the same
 *   20-variable network. It is far too slow for 10⁴ steps, so it runs at T = 2, 10, 30, … while
 *   each run stays within --pgmpy-timeout (default 120 s); the figure is seconds per step, ours at
 *   10⁴ steps against pgmpy's at the largest T it finished (its per-step cost grows with T: each
 *   step scans every finding of the sequence), goal ≥ 100×. Its answers are compared with ours,
 *   and both with the exact marginals of the unrolled network (pgmpy's VariableElimination on the
 *   same tables, `unrolled`) at 4 steps of 10 variables: ours must equal them to 1e-9;
 *   DBNInference's differences are printed (on the umbrella world, asked for R1 and R2 together,
 *   its smoothed P(R1 | u1, u2) is 0.627, not Russell & Norvig's 0.883; asked for R1 alone, 0.883).
 * - an independent numpy forward–backward over the joint state of a whole slice
 *   (test/support/numpyForwardBackward.py) on a network it can hold (5 variables per slice, 10⁴
 *   steps; at 20 variables per slice the joint state has > 10⁶ entries and its transition matrix
 *   > 10¹² — that is why the engine works on the interface): equal numbers (1e-9) and faster.
 * Goals: those, and filtering memory at 10⁵ steps within 1.5× of that at 10³. Figures and goals go
 * to bench/results/dynamic.json (`npm run bench:report` renders them).
 *   npm run bench:dynamic [-- --pgmpy-timeout S] [--rounds N]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { forwardBackward, filterForward, DynamicTrees } from '../server/src/engine/dynamic/forwardBackward.js';
import type { StepFindings } from '../server/src/engine/dynamic/sliceTree.js';
import { createRng } from '../server/src/engine/random.js';
import type { TwoSliceNetwork } from '../server/src/engine/dynamic/twoSliceNetwork.js';
import { randomTwoSlice, sampleFindings, sampleStates, umbrellaWorld } from '../test/support/dynamicNetworks.js';
import { randomRows } from '../test/support/networks.js';
import { PGMPY_DIR, pgmpyMissing } from '../test/support/pgmpy.js';
import { check, figure, recordResults, secondsText, stats, summary } from './support/report.js';

const here = dirname(fileURLToPath(import.meta.url));
const PYTHON = '/usr/bin/python3';

if (process.argv[2] === '--child') {
  // Filtering only, findings drawn as the steps go: nothing grows with T but the loop counter.
  const T = Number(process.argv[3]);
  const dbn = benchNetwork();
  const rng = createRng(1);
  function* steps(): Generator<StepFindings> {
    for (let t = 0; t < T; t++) {
      const x = sampleStates(rng, dbn, 1)[1]!; // each step's evidence drawn afresh: the cost, not the story
      yield {
        evidence: new Map([
          [19, x[19]!],
          [18, x[18]!],
          [10, x[10]!],
        ]),
      };
    }
  }
  const start = performance.now();
  const r = filterForward(new DynamicTrees(dbn), steps(), () => undefined);
  const ms = performance.now() - start;
  console.log(JSON.stringify({ T, ms, rssMb: process.resourceUsage().maxRSS / 1024, logLikelihood: r.logLikelihood }));
  process.exit(0);
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const pgmpyTimeoutS = option('--pgmpy-timeout', 120);
const rounds = option('--rounds', 3);
/** Observed in every step (the others hidden): 6 of 20 variables; of a smaller slice, its middle and last. */
const observed = (n: number) => (n === 20 ? [10, 15, 16, 17, 18, 19] : [n >> 1, n - 1]);

/**
 * The 20-variable network every figure uses: random tables, 4 variables carried from step to step
 * (the forward interface), the others within the slice. Shaped so pgmpy's DBN can hold it too:
 * every variable in an arc inside the slice (one without a parent there gets the variable before
 * it) and slice 0 with the same arcs as the transition's slice (pgmpy copies arcs between its
 * two slices).
 */
function benchNetwork(n = 20): TwoSliceNetwork {
  const dbn = randomTwoSlice(3, n, 2, 1, Math.min(4, n));
  const rng = createRng(11);
  const card = (v: number) => dbn.variables[v % n]!.states.length;
  const rows = (parents: number[]) => parents.reduce((r, p) => r * card(p), 1);
  dbn.transition = dbn.transition.map((c) => {
    if (c.child === 0 || c.parents.some((p) => p < n)) return c;
    // pgmpy builds slice 0 from the arcs inside a slice: each variable needs one (V0 has V1's).
    const parents = [c.child - 1, ...c.parents];
    return { child: c.child, parents, table: randomRows(rng, rows(parents), card(c.child), false) };
  });
  dbn.initial = dbn.transition.map((c) => {
    const parents = c.parents.filter((p) => p < n);
    return { child: c.child, parents, table: randomRows(rng, rows(parents), card(c.child), false) };
  });
  return dbn;
}

function ours(n = 20): number[] {
  const dbn = benchNetwork(n);
  const findings = sampleFindings(createRng(2), dbn, 10_000, observed(n));
  const seconds: number[] = [];
  let logLikelihood = 0;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    logLikelihood = forwardBackward(dbn, findings, { smooth: true }).logLikelihood;
    seconds.push((performance.now() - start) / 1000);
  }
  const s = stats(seconds);
  console.log(
    `${n} variables per slice, 10^4 steps, filtering + smoothing (${rounds} rounds): ` +
      `${secondsText(s.min)} / ${secondsText(s.median)} / ${secondsText(s.max)} ` +
      `(${((s.median / 10_000) * 1e6).toFixed(0)} µs a step; log-likelihood ${logLikelihood.toFixed(3)})`,
  );
  return seconds;
}

/** The network and findings as the Python peers read them (numpyForwardBackward.py's form). */
function peerInput(dbn: TwoSliceNetwork, findings: readonly StepFindings[]): string {
  return JSON.stringify({
    cards: dbn.variables.map((v) => v.states.length),
    initial: dbn.initial.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
    transition: dbn.transition.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
    findings: findings.map((f) => ({ evidence: [...f.evidence], likelihoods: [] })),
  });
}

type Marginals = (number[] | null)[][];
interface PgmpyAnswer {
  seconds?: { build: number; forward: number; backward: number };
  filtered: Marginals;
  smoothed: Marginals;
}

/** bench/peers/pgmpy_dbn.py on a network and findings; a failure or a timeout as a string. */
function pgmpy(dbn: TwoSliceNetwork, findings: readonly StepFindings[], mode: string[] = []): PgmpyAnswer | string {
  const p = spawnSync(PYTHON, [join(here, 'peers', 'pgmpy_dbn.py'), ...mode], {
    input: peerInput(dbn, findings),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: pgmpyTimeoutS * 1000,
    env: { ...process.env, PYTHONPATH: PGMPY_DIR },
  });
  const said = p.stderr?.match(/compiled in [\d.]+ s/)?.[0];
  if (p.error || p.signal) return `over ${pgmpyTimeoutS} s (${said ?? 'not compiled by then'})`;
  if (p.status !== 0) return p.stderr.trim().split('\n').pop() ?? `exit ${p.status}`;
  return JSON.parse(p.stdout) as PgmpyAnswer;
}

/** Largest difference between ours and a peer's marginals (the peer's null: not asked). */
function difference(ours: Float64Array[][], peer: Marginals): number {
  let worst = 0;
  ours.forEach((slice, t) =>
    slice.forEach((m, v) => {
      const q = peer[t]![v];
      if (q) m.forEach((x, k) => (worst = Math.max(worst, Math.abs(x - q[k]!))));
    }),
  );
  return worst;
}

/**
 * Ours against the unrolled network's exact marginals, and DBNInference's differences, at 4 steps
 * of the n-variable network (10: at 20, DBNInference and the unrolled elimination each take
 * minutes on a loaded machine).
 */
function pgmpyAnswers(n: number): void {
  const dbn = benchNetwork(n);
  const findings = sampleFindings(createRng(5), dbn, 4, observed(n));
  const r = forwardBackward(dbn, findings, { smooth: true });
  const exact = pgmpy(dbn, findings, ['unrolled']);
  const dbnInference = pgmpy(dbn, findings);
  if (typeof exact === 'string' || typeof dbnInference === 'string') {
    console.log(`pgmpy's answers unavailable: ${typeof exact === 'string' ? exact : (dbnInference as string)}`);
    return;
  }
  const ef = difference(r.filtered, exact.filtered);
  const es = difference(r.smoothed!, exact.smoothed);
  check(
    Math.max(ef, es) <= 1e-9,
    `ours = the unrolled network's exact marginals (pgmpy VariableElimination), 4 steps, ${n} variables: ` +
      `filtered ${ef.toExponential(1)}, smoothed ${es.toExponential(1)} ≤ 1e-9`,
  );
  console.log(
    `pgmpy DBNInference against the same exact marginals: forward_inference (filtered) off by up to ` +
      `${difference(r.filtered, dbnInference.filtered).toExponential(1)}, backward_inference (smoothed) by up to ` +
      `${difference(r.smoothed!, dbnInference.smoothed).toExponential(1)}`,
  );
  umbrella();
}

/** Russell & Norvig's umbrella world through DBNInference: P(R1 | u1, u2) should be 0.883. */
function umbrella(): void {
  const dbn = umbrellaWorld();
  const findings = [0, 0].map(() => ({ evidence: new Map([[1, 0]]) }));
  const r = forwardBackward(dbn, findings, { smooth: true });
  const peer = pgmpy(dbn, findings);
  if (typeof peer === 'string') return;
  const p = (m: Marginals, t: number) => m[t]![0]![0]!.toFixed(3);
  console.log(
    `umbrella world, u1 = u2 = yes: filtered P(R1), P(R2) ours ${r.filtered[0]![0]![0]!.toFixed(3)}, ` +
      `${r.filtered[1]![0]![0]!.toFixed(3)}, pgmpy ${p(peer.filtered, 0)}, ${p(peer.filtered, 1)}; ` +
      `smoothed P(R1) ours ${r.smoothed![0]![0]![0]!.toFixed(3)}, pgmpy ${p(peer.smoothed, 0)} (Russell & Norvig: 0.883)`,
  );
}

/**
 * pgmpy's seconds per step at T = 2, 10, 30, … while it finishes within the time limit, on the
 * 20-variable network, or when it cannot finish 2 steps of that, on 10 and then 5 variables per
 * slice (the same generator); ours on the same network at 10⁴ steps.
 */
function versusPgmpy(ours20: number[]): void {
  const missing = pgmpyMissing();
  if (missing) {
    console.log(`pgmpy skipped: ${missing}`);
    return;
  }
  pgmpyAnswers(10);
  for (const n of [20, 10, 5]) {
    const last = pgmpySteps(n);
    if (!last) continue;
    const mine = n === 20 ? ours20 : ours(n);
    figure({
      work: `network over time, ${n} variables per slice: filtering + smoothing, per step (pgmpy at ${last.T} steps, ours at 10^4)`,
      ours: stats(mine.map((x) => x / 10_000)),
      peer: { name: 'pgmpy DBNInference', seconds: stats([last.seconds / last.T]) },
      goal: 100,
    });
    return;
  }
}

/** pgmpy at growing T on the n-variable network: its largest T within the limit, or undefined. */
function pgmpySteps(n: number): { T: number; seconds: number } | undefined {
  const dbn = benchNetwork(n);
  let last: { T: number; seconds: number } | undefined;
  for (const T of [2, 10, 30, 100, 300, 1000, 3000, 10_000]) {
    // Its cost grows faster than T: stop before a run that would pass the limit.
    if (last && (last.seconds * T) / last.T > pgmpyTimeoutS / 2) {
      console.log(`pgmpy DBNInference not run at ${T} steps: at ${last.T} it took ${last.seconds.toFixed(1)} s`);
      break;
    }
    const peer = pgmpy(dbn, sampleFindings(createRng(2), dbn, T, observed(n)));
    if (typeof peer === 'string') {
      console.log(`pgmpy DBNInference, ${n} variables per slice, ${T} steps: ${peer}`);
      break;
    }
    const s = peer.seconds!;
    const seconds = s.forward + s.backward;
    console.log(
      `pgmpy DBNInference, ${n} variables per slice, ${T} steps: forward ${s.forward.toFixed(2)} s + backward ` +
        `${s.backward.toFixed(2)} s (${((seconds / T) * 1000).toFixed(1)} ms a step; its compile ${s.build.toFixed(2)} s not counted)`,
    );
    last = { T, seconds };
  }
  return last;
}

function versusNumpy(): void {
  const dbn = randomTwoSlice(4, 5, 2, 1);
  const findings = sampleFindings(createRng(4), dbn, 10_000, [4]);
  const start = performance.now();
  const r = forwardBackward(dbn, findings, { smooth: true });
  const oursMs = performance.now() - start;
  const script = readFileSync(join(here, '..', 'test', 'support', 'numpyForwardBackward.py'), 'utf8');
  const timed = `import time, runpy, sys\nt0 = time.perf_counter()\n${script}\nprint(time.perf_counter() - t0, file=sys.stderr)`;
  const p = spawnSync(PYTHON, ['-c', timed], { input: peerInput(dbn, findings), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0) {
    console.log(`numpy peer unavailable: ${p.stderr.trim().split('\n').pop()}`);
    return;
  }
  const peer = JSON.parse(p.stdout) as { logLikelihood: number; smoothed: number[][][] };
  const peerMs = Number(p.stderr.trim().split('\n').pop()) * 1000;
  let worst = Math.abs(peer.logLikelihood - r.logLikelihood) / Math.abs(peer.logLikelihood);
  r.smoothed!.forEach((s, t) =>
    s.forEach((m, v) => m.forEach((x, k) => (worst = Math.max(worst, Math.abs(x - peer.smoothed[t]![v]![k]!))))),
  );
  const slice = dbn.variables.reduce((n, v) => n * v.states.length, 1);
  console.log(
    `5 variables per slice (${slice} joint states), 10^4 steps: ours ${(oursMs / 1000).toFixed(2)} s, ` +
      `numpy ${(peerMs / 1000).toFixed(2)} s (${(peerMs / oursMs).toFixed(1)}×), max difference ${worst.toExponential(1)}`,
  );
  check(worst < 1e-9, `equal to numpy's forward–backward (5 variables, 10^4 steps): ${worst.toExponential(1)} < 1e-9`);
  check(oursMs < peerMs, `faster than numpy's forward–backward: ${(peerMs / oursMs).toFixed(1)}× > 1×`);
}

function memory(): void {
  const rows = [1_000, 10_000, 100_000].map((T) => {
    const p = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(T)], {
      encoding: 'utf8',
    });
    if (p.status !== 0) throw new Error(p.stderr);
    return JSON.parse(p.stdout) as { T: number; ms: number; rssMb: number };
  });
  for (const r of rows)
    console.log(
      `filtering ${r.T} steps (20 variables per slice): ${(r.ms / 1000).toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB`,
    );
  const [a, c] = [rows[0]!.rssMb, rows[2]!.rssMb];
  check(
    c <= 1.5 * a,
    `filtering memory flat in T: peak RSS ${c.toFixed(0)} MB at 10^5 steps ≤ 1.5 × ${a.toFixed(0)} MB at 10^3`,
  );
}

recordResults('dynamic');
versusPgmpy(ours());
versusNumpy();
memory();
summary('dynamic');
