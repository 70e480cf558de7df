/**
 * Networks over time: filtering + smoothing 10⁴ steps of a network of 20 variables per slice
 * (4 carried from step to step, the others observed or hidden within the slice), and the memory
 * of filtering at 10³, 10⁴ and 10⁵ steps (peak RSS of a fresh process each, streaming findings).
 * Peer: an independent numpy forward–backward over the joint state of a whole slice
 * (test/support/numpyForwardBackward.py) on a network it can hold (5 variables per slice, 10⁴
 * steps; at 20 variables per slice the joint state has > 10⁶ entries and its transition matrix
 * > 10¹² — that is why the engine works on the interface). pgmpy's DBNInference is not installed
 * here. Goals: equal numbers (1e-9) and faster than numpy on the same network; filtering memory
 * at 10⁵ steps within 1.5× of that at 10³.
 *   npm run bench:dynamic
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { forwardBackward, filterForward, DynamicTrees } from '../server/src/engine/dynamic/forwardBackward.js';
import type { StepFindings } from '../server/src/engine/dynamic/sliceTree.js';
import { createRng } from '../server/src/engine/random.js';
import { randomTwoSlice, sampleFindings, sampleStates } from '../test/support/dynamicNetworks.js';

const here = dirname(fileURLToPath(import.meta.url));
const PYTHON = '/usr/bin/python3';

if (process.argv[2] === '--child') {
  // Filtering only, findings drawn as the steps go: nothing grows with T but the loop counter.
  const T = Number(process.argv[3]);
  const dbn = randomTwoSlice(3, 20, 2, 1, 4);
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

function ours20(): void {
  const dbn = randomTwoSlice(3, 20, 2, 1, 4);
  const findings = sampleFindings(createRng(2), dbn, 10_000, [10, 15, 16, 17, 18, 19]);
  const start = performance.now();
  const r = forwardBackward(dbn, findings, { smooth: true });
  const ms = performance.now() - start;
  console.log(
    `20 variables per slice, 10^4 steps, filtering + smoothing: ${(ms / 1000).toFixed(2)} s (log-likelihood ${r.logLikelihood.toFixed(3)})`,
  );
}

function versusNumpy(): boolean {
  const dbn = randomTwoSlice(4, 5, 2, 1);
  const findings = sampleFindings(createRng(4), dbn, 10_000, [4]);
  const start = performance.now();
  const r = forwardBackward(dbn, findings, { smooth: true });
  const oursMs = performance.now() - start;
  const input = JSON.stringify({
    cards: dbn.variables.map((v) => v.states.length),
    initial: dbn.initial.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
    transition: dbn.transition.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
    findings: findings.map((f) => ({ evidence: [...f.evidence], likelihoods: [] })),
  });
  const script = readFileSync(join(here, '..', 'test', 'support', 'numpyForwardBackward.py'), 'utf8');
  const timed = `import time, runpy, sys\nt0 = time.perf_counter()\n${script}\nprint(time.perf_counter() - t0, file=sys.stderr)`;
  const p = spawnSync(PYTHON, ['-c', timed], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0) {
    console.log(`numpy peer unavailable: ${p.stderr.trim().split('\n').pop()}`);
    return true;
  }
  const peer = JSON.parse(p.stdout) as { logLikelihood: number; smoothed: number[][][] };
  const peerMs = Number(p.stderr.trim().split('\n').pop()) * 1000;
  let worst = Math.abs(peer.logLikelihood - r.logLikelihood) / Math.abs(peer.logLikelihood);
  r.smoothed!.forEach((s, t) =>
    s.forEach((m, v) => m.forEach((x, k) => (worst = Math.max(worst, Math.abs(x - peer.smoothed[t]![v]![k]!))))),
  );
  const slice = dbn.variables.reduce((n, v) => n * v.states.length, 1);
  console.log(
    `5 variables per slice (${slice} joint states), 10^4 steps: ours ${(oursMs / 1000).toFixed(2)} s, numpy ${(peerMs / 1000).toFixed(2)} s (${(peerMs / oursMs).toFixed(1)}×), max difference ${worst.toExponential(1)}`,
  );
  return worst < 1e-9 && oursMs < peerMs;
}

function memory(): boolean {
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
  return rows[2]!.rssMb <= 1.5 * rows[0]!.rssMb;
}

ours20();
const fast = versusNumpy();
const flat = memory();
console.log(
  `goals: equal and faster than numpy ${fast ? 'met' : 'FAILED'}; memory flat in T ${flat ? 'met' : 'FAILED'}`,
);
process.exitCode = fast && flat ? 0 : 1;
