/**
 * All posterior marginals for one evidence set on bnlearn networks: our junction tree against
 * pomegranate 0.14 (loopy belief propagation, approximate; Debian python3-pomegranate via
 * /usr/bin/python3), each side in a fresh process, alternating ours / peer for --rounds rounds.
 * Then pgmpy v0.1.23 (exact; .cache/pgmpy on PYTHONPATH, see bench/peers/pgmpy_setup.sh; skipped
 * with a message when absent) in the same rounds (ours, pomegranate, pgmpy), by
 * bench/peers/pgmpy_marginals.py: "pgmpy VE" is VariableElimination, one query per unobserved
 * variable with pgmpy's default elimination order ("greedy", an opt_einsum contraction); "pgmpy BP"
 * (only with `--pgmpy ve,bp`: on alarm its calibration alone took 17–39 s and 1.4 GB, exact to
 * 4e-15) is BeliefPropagation, pgmpy's junction tree, evidence entered as indicator factors and
 * calibrated once. incl = building the model (+ its junction tree for BP) + the marginals; after =
 * the marginals. Each pgmpy side has its own time limit (--pgmpy-timeout); a side that runs over it
 * is reported once and not run again in later rounds. Peak RSS is printed for every side. No goal
 * is on pgmpy; its error against the references is printed (it is exact: ~1e-15).
 *
 * Per network: "incl" = the one-shot answer for the first evidence set, as `bayes marginals` gives
 * it (BIF parsing excluded on both sides): the full network's triangulation, then posteriorMarginals
 * (a tree reduced by the evidence when clearly smaller, else the full tree: triangulation, compile,
 * propagation); "after" = one evidence set's marginals on the full tree compiled and kept,
 * the method `auto` chooses and why, peak RSS, our process CPU time (less load-dependent than wall
 * time; the goals are on wall time), and the max error against the shared reference
 * marginals. Prints min/median/max over the rounds and the ratio of medians (peer / ours).
 * "parse" = reading the BIF text already in memory into a network (readBif: rows normalised,
 * budgets checked), PARSE_RUNS times in this process, the first one cold.
 * "whole" = `bayes marginals NET.bif -e … --json` (bin/bayes.cjs, built by `npm run bench:inference`)
 * in a fresh process, Node's start included, with its own "timings". The in-process child sets up
 * its process as the command does (cli/youngGeneration.ts: V8's young generation kept small).
 * "ratios" = the peer's incl (its algorithm alone, build + first evidence set) / ours, in process
 * (incl) and whole process;
 * issue 33's goals are on the fastest peer: in process ≥ 2×, whole process ≥ 1×. The run's lines,
 * goals and these figures go to bench/results/inference.json (`npm run bench:report` renders them).
 * The speed goals of issue 18 are checked at the end: a goal the run does not meet is printed
 * as FAILED and the exit code is 1.
 * Usage: npm run bench:inference [-- net…] [--rounds N] [--timeout S] [--pgmpy-timeout S]
 *   [--pgmpy ve | ve,bp | none]   (default ve)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseExact, exactPlan, posteriorMarginals } from '../server/src/engine/inference/marginals.js';
import { readBif } from '../server/src/model/bif.js';
import { keepYoungGenerationSmall } from '../server/src/cli/youngGeneration.js';
import type { BayesianNetwork } from '../server/src/engine/network.js';
import { evidenceOf, loadBif, loadReference, type ReferenceCase } from '../test/support/networks.js';
import { sharedFile } from '../test/support/shared.js';
import { exportNetwork } from './peers/exportNetwork.js';
import { bayesBin, check, figure, loadAverage, recordResults, stats, summary } from './support/report.js';
import { PGMPY_DIR, pgmpyMissing } from '../test/support/pgmpy.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const timeoutS = option('--timeout', 600);
const rounds = option('--rounds', 3);
const pgmpyTimeoutS = option('--pgmpy-timeout', 120);
const pgmpyMethods = args[args.indexOf('--pgmpy') + 1]?.split(',').filter((m) => m === 've' || m === 'bp') ?? [];
if (!args.includes('--pgmpy')) pgmpyMethods.push('ve');
const nets = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const NETWORKS = nets.length
  ? nets
  : [
      'alarm',
      'andes',
      'pigs',
      'diabetes',
      'pathfinder',
      'barley',
      'munin',
      'link',
      'munin1',
      'munin2',
      'munin3',
      'munin4',
    ];

type Marginals = Record<string, Record<string, number>>;

const PARSE_RUNS = 5;

/** Times readBif on the file's text (read once, outside the timing): seconds per run, and the network. */
function timeParse(name: string): { net: BayesianNetwork; seconds: number[]; mb: number } | undefined {
  const path = sharedFile('bif', `${name}.bif`);
  if (!path) return undefined;
  const text = readFileSync(path, 'utf8');
  const seconds: number[] = [];
  let net: BayesianNetwork | undefined;
  for (let i = 0; i < PARSE_RUNS; i++) {
    const t = performance.now();
    const r = readBif(text);
    seconds.push((performance.now() - t) / 1000);
    if ('error' in r) throw new Error(`${name}.bif: ${r.error.message}`);
    net = r.network;
  }
  return { net: net!, seconds, mb: Buffer.byteLength(text) / 1e6 };
}

interface OursRun {
  method: string;
  reason: string;
  entries: number;
  bytes: number;
  orderS: number;
  compileS: number;
  firstS: number;
  afterS: number;
  /** The full network's triangulation (exactPlan), the answer (posteriorMarginals): incl = both. */
  /** compileS: the full tree's compile for "after", apart from incl (≈ 0 when the answer compiled it). */
  /** Process CPU time (all threads: JIT and GC helpers count) of incl and after: less load-dependent than wall. */
  inclCpuS: number;
  afterCpuS: number;
  rssMb: number;
  /** Max error against the reference (null: no reference); sampled answers: the largest standard error. */
  error: number | null;
  maxStderr?: number;
  samples?: number;
}
const sci = (x: number | null | undefined) => (x === null || x === undefined ? 'no reference' : x.toExponential(1));

/** The evidence set timed: the first reference case with evidence (none when there is no reference). */
function caseOf(name: string): ReferenceCase | undefined {
  const cases = loadReference(name);
  return cases?.find((c) => Object.keys(c.evidence).length > 0) ?? cases?.[0];
}

function maxError(ours: Marginals, ref: Marginals, observed: Record<string, string>): number {
  let worst = 0;
  for (const [v, dist] of Object.entries(ref)) {
    if (v in observed) continue;
    for (const [s, p] of Object.entries(dist)) worst = Math.max(worst, Math.abs(p - (ours[v]?.[s] ?? NaN)));
  }
  return worst;
}

/** One fresh-process run of ours (`--child NAME`): prints an OursRun as JSON. */
function child(name: string): void {
  // The process is set up as a `bayes` command's is (its young generation kept small).
  keepYoungGenerationSmall();
  const net = loadBif(name)!;
  const ref = caseOf(name);
  const evidence = evidenceOf(net, ref?.evidence ?? {});
  const cpuS = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1e6;
  };
  // incl: what `bayes marginals` does for one evidence set. The full network's triangulation
  // first (the choice needs its size), then posteriorMarginals: on a tree reduced by the evidence
  // (its own triangulation, compile, propagation), on the full tree (compile, propagation), or by
  // per-variable elimination when the full tree is over budget.
  let cpu = process.cpuUsage();
  let t = performance.now();
  const plan = exactPlan(net);
  const orderS = (performance.now() - t) / 1000;
  t = performance.now();
  const r = posteriorMarginals(net, evidence, { seed: 1 });
  const firstS = (performance.now() - t) / 1000;
  const inclCpuS = cpuS(cpu);
  if (!r.ok) throw new Error(r.message);
  const values = r.marginals;
  let compileS = 0,
    afterS = firstS,
    afterCpuS = inclCpuS;
  if (chooseExact(plan, {}).exact) {
    // after: the full tree compiled once and kept (as the results panel keeps it), one more
    // evidence set = one propagation. Its compile counts in incl only when the answer used it.
    t = performance.now();
    const jt = plan.tree();
    compileS = (performance.now() - t) / 1000;
    const all = () => {
      jt.setEvidence(evidence);
      jt.propagate();
      return net.variables.map((_, v) => jt.marginal(v));
    };
    all();
    const times: number[] = [],
      cpuTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      cpu = process.cpuUsage();
      t = performance.now();
      all();
      times.push(performance.now() - t);
      cpuTimes.push(cpuS(cpu));
    }
    afterS = times.sort((a, b) => a - b)[2]! / 1000;
    afterCpuS = cpuTimes.sort((a, b) => a - b)[2]!;
  }
  // Exact by per-variable elimination or a reduced tree (the full one over budget): nothing is
  // kept, so every evidence set costs what the first did.
  const method = r.method,
    reason = r.reason ?? '',
    samples = r.samples;
  const maxStderr = r.stderr ? Math.max(...r.stderr.map((se) => Math.max(...se))) : undefined;
  const named: Marginals = {};
  net.variables.forEach((v, i) => {
    named[v.name] = Object.fromEntries(v.states.map((s, j) => [s, values[i]![j]!]));
  });
  const out: OursRun = {
    method,
    reason,
    entries: plan.entries,
    bytes: plan.bytes,
    orderS,
    compileS,
    firstS,
    afterS,
    inclCpuS,
    afterCpuS,
    rssMb: process.resourceUsage().maxRSS / 1024,
    error: ref ? maxError(named, ref.marginals, ref.evidence) : null,
    ...(maxStderr !== undefined ? { maxStderr, samples } : {}),
  };
  process.stdout.write(JSON.stringify(out));
}

function run(
  command: string,
  argv: string[],
  limitS = timeoutS,
  env?: NodeJS.ProcessEnv,
): { out: string } | { failed: string } {
  const r = spawnSync(command, argv, { encoding: 'utf8', timeout: limitS * 1000, maxBuffer: 1 << 28, env });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { failed: `timeout ${limitS}s` };
  if (r.status !== 0) {
    const lines = (r.stderr || String(r.error)).trim().split('\n');
    return { failed: `failed: ${(lines.find((l) => /Error|FATAL/.test(l)) ?? lines.pop())!.trim()}` };
  }
  return { out: r.stdout };
}

interface PeerRun {
  incl: number;
  after: number;
  error: number | null;
  rssMb: number;
}

interface WholeRun {
  /** Wall seconds of `bayes marginals NET.bif -e … --json` in a fresh process, Node's start included. */
  wall: number;
  /** The command's own "timings" (ms): where its time went. */
  timings: Record<string, number>;
}

/** One fresh `bayes marginals` process on the shared BIF file with the case's evidence, as a user runs it. */
function wholeRun(name: string, ref: ReferenceCase | undefined): WholeRun | { failed: string } {
  const evidence = Object.entries(ref?.evidence ?? {}).flatMap(([v, s]) => ['-e', `${v}=${s}`]);
  const argv = [bayesBin, 'marginals', sharedFile('bif', `${name}.bif`)!, ...evidence, '--json'];
  const t = performance.now();
  const r = run(process.execPath, argv);
  const wall = (performance.now() - t) / 1000;
  if ('failed' in r) return r;
  return { wall, timings: (JSON.parse(r.out) as { timings: Record<string, number> }).timings };
}

/** A peer's JSON (pomegranate_marginals.py, pgmpy_marginals.py): build + the first evidence set. */
function peerRun(out: string, ref: ReferenceCase | undefined): PeerRun {
  const j = JSON.parse(out) as {
    build_s: number;
    maxrss_mb: number;
    cases: { seconds: number; marginals: Marginals }[];
  };
  const c = j.cases[0]!;
  const error = ref ? maxError(c.marginals, ref.marginals, ref.evidence) : null;
  return { incl: j.build_s + c.seconds, after: c.seconds, error, rssMb: j.maxrss_mb };
}

/** One pgmpy method (bench/peers/pgmpy_marginals.py) as a side of the rounds. */
interface PgmpySide {
  method: 've' | 'bp';
  label: string;
  runs: PeerRun[];
  failed?: string;
}
let pgmpyAbsent: string | undefined | null = null;

/** The pgmpy sides to run on a network: none (said once) when pgmpy does not import. */
function pgmpySides(): PgmpySide[] {
  if (!pgmpyMethods.length) return [];
  if (pgmpyAbsent === null) {
    pgmpyAbsent = pgmpyMissing();
    if (pgmpyAbsent) console.log(`pgmpy skipped: ${pgmpyAbsent}`);
  }
  if (pgmpyAbsent) return [];
  return pgmpyMethods.map((m) => ({ method: m as 've' | 'bp', label: `pgmpy ${m.toUpperCase()}`, runs: [] }));
}

/** One fresh-process pgmpy run; a failure or a run over --pgmpy-timeout ends the side for this network. */
function pgmpyRound(side: PgmpySide, specFile: string, ref: ReferenceCase | undefined): void {
  if (side.failed) return;
  const script = join(here, 'peers', 'pgmpy_marginals.py');
  const p = run('/usr/bin/python3', [script, specFile, '1', side.method], pgmpyTimeoutS, {
    ...process.env,
    PYTHONPATH: PGMPY_DIR,
  });
  if ('failed' in p) side.failed = p.failed.startsWith('timeout') ? `over ${pgmpyTimeoutS} s` : p.failed;
  else side.runs.push(peerRun(p.out, ref));
}

function printPgmpy(side: PgmpySide, oursIncl: number[], oursAfter: number, exact: boolean): void {
  const label = side.label.padEnd(12);
  const runs = side.runs;
  if (!runs.length) {
    console.log(`  ${label} ${side.failed ?? 'not run'}`);
    return;
  }
  const incl = median(runs.map((p) => p.incl)),
    after = median(runs.map((p) => p.after));
  console.log(
    `  ${label} incl ${spread(runs.map((p) => p.incl))}; after ${spread(runs.map((p) => p.after))}; ` +
      `ratio incl ${(incl / median(oursIncl)).toFixed(1)}×` +
      (exact ? `, after ${(after / oursAfter).toFixed(1)}×` : '') +
      `; error ${sci(runs[0]!.error)}; peak RSS ${median(runs.map((p) => p.rssMb)).toFixed(0)} MB` +
      (side.failed ? `; later rounds ${side.failed}` : ''),
  );
}

/**
 * Issue 33's goals against the fastest peer (its algorithm alone: build + the first evidence set):
 * in process ≥ 2× (ours incl), and the whole `bayes marginals` process never slower (≥ 1×).
 * Every peer's ratios are printed; the goals go to the results file as figures.
 */
function printRatios(
  name: string,
  incl: number[],
  whole: WholeRun[],
  wholeFailed: string | undefined,
  peers: { name: string; incl: number[] }[],
): void {
  const wall = whole.map((w) => w.wall);
  if (whole.length) {
    const stages = Object.entries(whole[0]!.timings)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
    console.log(`  whole        bayes marginals --json ${spread(wall)} (its timings, first round, ms: ${stages})`);
  } else console.log(`  whole        ${wholeFailed ?? 'not run'}`);
  for (const p of peers) {
    const r = (xs: number[]) => (median(p.incl) / median(xs)).toFixed(2);
    console.log(
      `  ratios       vs ${p.name}: in process ${r(incl)}×` + (whole.length ? `, whole process ${r(wall)}×` : ''),
    );
  }
  if (!peers.length) return;
  const fastest = peers.reduce((a, b) => (median(b.incl) < median(a.incl) ? b : a));
  const peerStats = { name: fastest.name, seconds: stats(fastest.incl) };
  figure({ work: `${name} marginals, in process`, ours: stats(incl), peer: peerStats, goal: 2 });
  if (whole.length) figure({ work: `${name} marginals, whole process`, ours: stats(wall), peer: peerStats, goal: 1 });
  else check(false, `${name} whole process: ${wholeFailed ?? 'not run'}`);
}

const ms = (s: number) => (s * 1000 < 10 ? (s * 1000).toFixed(2) : (s * 1000).toFixed(0)) + ' ms';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${ms(s[0]!)} / ${ms(median(s))} / ${ms(s[s.length - 1]!)}`;
};

function main(): void {
  recordResults('inference');
  const started = new Date().toISOString();
  console.log(
    `bench/inference.ts ${started}, load average ${loadAverage()}, ` +
      `${rounds} alternating rounds, fresh processes; times min / median / max; peer time limit ${timeoutS}s`,
  );
  if (pgmpyMethods.length) {
    console.log(`pgmpy (${pgmpyMethods.join(', ')}) time limit ${pgmpyTimeoutS}s, not retried after a timeout`);
  }
  const goal = check;
  const dir = mkdtempSync(join(tmpdir(), 'bench-inference-'));
  try {
    for (const name of NETWORKS) {
      const parsed = timeParse(name);
      if (!parsed) {
        console.log(`\n${name}: ../shared/data missing, skipped`);
        continue;
      }
      const net = parsed.net;
      const parseLine = () => {
        const parse = median(parsed.seconds);
        console.log(
          `  parse        ${spread(parsed.seconds)} (${PARSE_RUNS} in-process runs of ${parsed.mb.toFixed(1)} MB, ` +
            'the first cold)',
        );
        goal(parse <= 0.2, `${name} BIF parse ≤ 0.2 s: ${ms(parse)}`);
      };
      const ref = caseOf(name);
      const specFile = join(dir, `${name}.json`);
      writeFileSync(specFile, JSON.stringify(exportNetwork(net, [ref?.evidence ?? {}])));
      const ours: OursRun[] = [];
      const whole: WholeRun[] = [];
      let wholeFailed: string | undefined;
      const peer: PeerRun[] = [];
      const pgmpy = pgmpySides();
      let peerFailed: string | undefined;
      for (let r = 0; r < rounds; r++) {
        const o = run(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name]);
        if ('failed' in o) {
          console.log(`\n${name}: ours ${o.failed}`);
          if (!ours.length) parseLine();
          break;
        }
        ours.push(JSON.parse(o.out) as OursRun);
        if (!wholeFailed) {
          const w = wholeRun(name, ref);
          if ('failed' in w) wholeFailed = w.failed;
          else whole.push(w);
        }
        if (!peerFailed) {
          const p = run('/usr/bin/python3', [join(here, 'peers', 'pomegranate_marginals.py'), specFile, '1']);
          if ('failed' in p) peerFailed = p.failed;
          else peer.push(peerRun(p.out, ref));
        }
        for (const side of pgmpy) pgmpyRound(side, specFile, ref);
      }
      if (!ours.length) continue;
      const o0 = ours[0]!;
      const incl = ours.map((o) => o.orderS + o.firstS);
      console.log(`\n${name}: ${net.variables.length} variables; ${o0.reason}`);
      parseLine();
      if (o0.method === 'exact') {
        console.log(
          `  ours         incl ${spread(incl)} (full triangulation ${ms(median(ours.map((o) => o.orderS)))}, ` +
            `answer ${ms(median(ours.map((o) => o.firstS)))}); after ${spread(ours.map((o) => o.afterS))} ` +
            `(full tree compiled apart: ${ms(median(ours.map((o) => o.compileS)))}); ` +
            `process CPU: incl ${ms(median(ours.map((o) => o.inclCpuS)))}, ` +
            `after ${ms(median(ours.map((o) => o.afterCpuS)))}; ` +
            `peak RSS ${median(ours.map((o) => o.rssMb)).toFixed(0)} MB; error ${sci(o0.error)}`,
        );
      } else {
        console.log(
          `  ours         ${o0.method} ${spread(ours.map((o) => o.firstS))}; peak RSS ` +
            `${median(ours.map((o) => o.rssMb)).toFixed(0)} MB; ${o0.samples} samples, largest standard error ` +
            `${sci(o0.maxStderr)}; error ${sci(o0.error)}`,
        );
      }
      if (peer.length) {
        const ratio = median(peer.map((p) => p.incl)) / median(incl);
        console.log(
          `  pomegranate  incl ${spread(peer.map((p) => p.incl))}; ` +
            `after ${spread(peer.map((p) => p.after))}; ` +
            `ratio incl ${ratio.toFixed(1)}×` +
            (o0.method === 'exact'
              ? `, after ${(median(peer.map((p) => p.after)) / median(ours.map((o) => o.afterS))).toFixed(1)}×; `
              : '; ') +
            `error ${sci(peer[0]!.error)}; peak RSS ${median(peer.map((p) => p.rssMb)).toFixed(0)} MB`,
        );
      } else console.log(`  pomegranate  ${peerFailed ?? 'not run'}`);
      for (const side of pgmpy) printPgmpy(side, incl, median(ours.map((o) => o.afterS)), o0.method === 'exact');
      const peers = [
        ...(peer.length ? [{ name: 'pomegranate LBP', incl: peer.map((p) => p.incl) }] : []),
        ...pgmpy.filter((s) => s.runs.length).map((s) => ({ name: s.label, incl: s.runs.map((p) => p.incl) })),
      ];
      printRatios(name, incl, whole, wholeFailed, peers);
      const exact = o0.method === 'exact';
      if (name === 'munin') {
        goal(exact && median(incl) <= 0.5, `munin incl ≤ 0.5 s: ${ms(median(incl))}`);
        const after = median(ours.map((o) => o.afterS));
        goal(exact && after <= 0.1, `munin after ≤ 0.1 s: ${ms(after)}`);
      } else if (name === 'link') {
        goal(exact, `link exact by default: ${o0.method}`);
        goal(exact && median(incl) <= 3, `link incl ≤ 3 s: ${ms(median(incl))}`);
      } else if (['pigs', 'andes', 'diabetes', 'pathfinder', 'barley'].includes(name)) {
        goal(exact, `${name} exact: ${o0.method}`);
        if (peer.length) {
          goal(
            median(incl) < median(peer.map((p) => p.incl)),
            `${name} incl faster than pomegranate's: ${ms(median(incl))} vs ${ms(median(peer.map((p) => p.incl)))}`,
          );
        }
      }
      if (exact && o0.error !== null) goal(o0.error <= 1e-9, `${name} matches the reference to 1e-9: ${sci(o0.error)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  summary('bench:inference');
}

const childAt = args.indexOf('--child');
if (childAt >= 0) child(args[childAt + 1]!);
else main();
