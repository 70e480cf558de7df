/**
 * What the speed benches print the same way: min / median / max (and p95) of repeated timings,
 * the machine's load average beside them, goal lines that say `FAILED` and set exit code 1 when
 * a figure misses its goal, and fresh-process timings of the CLI (a `bayes` command minus
 * `node -e 0`, alternating, so both see the same load).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
