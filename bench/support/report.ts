/**
 * What the speed benches print the same way: min / median / max (and p95) of repeated timings,
 * the machine's load average beside them, goal lines that say `FAILED` and set exit code 1 when
 * a figure misses its goal, and fresh-process timings of the CLI (a `bayes` command minus
 * `node -e 0`, alternating, so both see the same load).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Stats {
  min: number;
  median: number;
  p95: number;
  max: number;
}

export function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { min: s[0]!, median: s[s.length >> 1]!, p95: at(0.95), max: s[s.length - 1]! };
}

/** `min / median / max` with `digits` decimals (and the unit once, at the end). */
export function spread(s: Stats, digits = 1, unit = 'ms'): string {
  return `${s.min.toFixed(digits)} / ${s.median.toFixed(digits)} / ${s.max.toFixed(digits)} ${unit}`;
}

/** The 1, 5 and 15 minute load averages, e.g. `0.4 0.9 2.2`. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

const failures: string[] = [];

/** Prints `goal met` or `goal FAILED` and the claim; a miss sets exit code 1 and is listed by `summary`. */
export function check(ok: boolean, line: string): boolean {
  console.log(`  goal ${ok ? 'met   ' : 'FAILED'} ${line}`);
  goalLines.push({ met: ok, line });
  if (!ok) {
    failures.push(line);
    process.exitCode = 1;
  }
  return ok;
}

/** A `check` of `value ≤ limit`, the figure printed with its unit. */
export function goal(what: string, value: number, limit: number, unit = 'ms', digits = 1): boolean {
  return check(value <= limit, `${what} ≤ ${limit} ${unit}: ${value.toFixed(digits)} ${unit}`);
}

/** The closing line: every goal met, or the ones that were not (loudly), with the load average. */
export function summary(bench: string): void {
  const load = `load average ${loadAverage()}`;
  if (failures.length === 0) console.log(`\n${bench}: every goal met (${load})`);
  else console.log(`\n${bench}: ${failures.length} goal(s) FAILED (${load}):\n  ${failures.join('\n  ')}`);
  writeResults();
}

export const bayesBin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'bayes.cjs');

/** CPU seconds (user + system) of the children waited for so far, as a running total (Linux). */
let childCpu = 0;
function cpuOfChildren(): number {
  // /proc/self/stat fields 16 and 17: cutime and cstime in clock ticks (100 per second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const total = (Number(fields[13]) + Number(fields[14])) / 100;
  const delta = total - childCpu;
  childCpu = total;
  return delta;
}

interface Timed {
  wall: number;
  cpu: number;
}

function timed(argv: string[], okStatus: number[]): Timed {
  cpuOfChildren();
  const t = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 2 ** 28 });
  const wall = (performance.now() - t) / 1000;
  if (!okStatus.includes(r.status ?? -1)) throw new Error(`node ${argv.join(' ')} failed: ${r.stderr}`);
  return { wall, cpu: cpuOfChildren() };
}

/** Seconds (wall and CPU) of `node -e 0` and of `node argv…`, and their pairwise differences. */
export interface FreshProcess {
  node: { wall: Stats; cpu: Stats };
  command: { wall: Stats; cpu: Stats };
  difference: { wall: Stats; cpu: Stats };
}

/** `rounds` alternating pairs of fresh processes: `node -e 0`, then `node argv…` (exiting with one of `okStatus`). */
export function freshProcess(argv: string[], rounds: number, okStatus = [0]): FreshProcess {
  const node: Timed[] = [];
  const command: Timed[] = [];
  for (let i = 0; i < rounds; i++) {
    node.push(timed(['-e', '0'], [0]));
    command.push(timed(argv, okStatus));
  }
  const of = (runs: Timed[]) => ({ wall: stats(runs.map((r) => r.wall)), cpu: stats(runs.map((r) => r.cpu)) });
  return {
    node: of(node),
    command: of(command),
    difference: of(command.map((r, i) => ({ wall: r.wall - node[i]!.wall, cpu: r.cpu - node[i]!.cpu }))),
  };
}

/** Three lines: `node -e 0`, the command, and the difference, wall and CPU, min / median / max in seconds. */
export function printFreshProcess(label: string, f: FreshProcess): void {
  const line = (name: string, x: { wall: Stats; cpu: Stats }) =>
    console.log(`  ${name.padEnd(16)} wall ${spread(x.wall, 3, 's')}, cpu ${spread(x.cpu, 3, 's')}`);
  line('node -e 0', f.node);
  line(label, f.command);
  line('difference', f.difference);
}

/**
 * Results files: a bench that calls `recordResults(name)` first has its printed lines, its goal
 * lines and the figures it gives `figure()` written to bench/results/NAME.json by `summary`, so
 * docs/benchmarks.md and the README's speed table (`npm run bench:report`, scripts/benchReport.ts)
 * are rendered from what a run measured, never copied by hand. A figure is kept per `work`: a run
 * of some networks replaces those figures and keeps the others with their own run's date and load;
 * the values a figure had before are kept as its history.
 */
export interface Figure {
  /** What was timed, short (the README's "work" column); the key a later run replaces. */
  work: string;
  /** Ours, seconds: min / median / p95 / max over the rounds. */
  ours: Stats;
  /** The fastest peer on this work and its seconds. */
  peer: { name: string; seconds: Stats };
  /** The goal on peer median / our median, e.g. 2 (at least twice as fast) or 1 (never slower). */
  goal: number;
}

interface FigureRecord extends Figure {
  ratio: number;
  met: boolean;
  run: RunInfo;
  history: { date: string; load: string; ours: number; peer: number; ratio: number; met: boolean }[];
}

interface RunInfo {
  date: string;
  command: string;
  commit: string;
  load: { start: string; end: string };
}

export interface ResultsFile {
  bench: string;
  figures: Record<string, FigureRecord>;
  runs: (RunInfo & { goals: { met: boolean; line: string }[]; log: string[] })[];
}

const HISTORY = 10;
const RUNS_KEPT = 5;
let recording: { bench: string; started: string; load: string; log: string[]; figures: Figure[] } | undefined;
const goalLines: { met: boolean; line: string }[] = [];

export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** From here on, printed lines, goals and figures are kept for bench/results/NAME.json. */
export function recordResults(bench: string): void {
  recording = { bench, started: new Date().toISOString(), load: loadAverage(), log: [], figures: [] };
  const log = console.log.bind(console);
  const lines = recording.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
    log(...args);
  };
}

/** A figure for the results file (see recordResults); a goal line is printed for it. */
export function figure(f: Figure): void {
  const ratio = f.peer.seconds.median / f.ours.median;
  check(
    ratio >= f.goal,
    `${f.work}: ${ratio.toFixed(2)}× ${f.peer.name} (${secondsText(f.ours.median)} vs ` +
      `${secondsText(f.peer.seconds.median)}), goal ≥ ${f.goal}×`,
  );
  recording?.figures.push(f);
}

export const secondsText = (s: number) => (s < 1 ? `${(s * 1000).toFixed(s < 0.01 ? 2 : 0)} ms` : `${s.toFixed(2)} s`);

function commitOf(): string {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

/** Merges this run into bench/results/NAME.json. */
function writeResults(): void {
  if (!recording) return;
  const file = join(resultsDir, `${recording.bench}.json`);
  let old: ResultsFile = { bench: recording.bench, figures: {}, runs: [] };
  if (existsSync(file)) old = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
  const run: RunInfo = {
    date: recording.started,
    command: `npm run bench:${recording.bench} -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, ''),
    commit: commitOf(),
    load: { start: recording.load, end: loadAverage() },
  };
  const figures = { ...old.figures };
  for (const f of recording.figures) {
    const ratio = f.peer.seconds.median / f.ours.median;
    const before = figures[f.work];
    const history = before
      ? [
          {
            date: before.run.date,
            load: before.run.load.start,
            ours: before.ours.median,
            peer: before.peer.seconds.median,
            ratio: before.ratio,
            met: before.met,
          },
          ...before.history,
        ].slice(0, HISTORY)
      : [];
    figures[f.work] = { ...f, ratio, met: ratio >= f.goal, run, history };
  }
  const runs = [{ ...run, goals: goalLines, log: recording.log }, ...old.runs].slice(0, RUNS_KEPT);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ bench: recording.bench, figures, runs }, null, 1) + '\n');
  console.log(`results: ${file}`);
}
