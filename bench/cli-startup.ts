/**
 * The CLI's own start-up: `bayes --help` minus `node -e 0`, in alternating fresh processes
 * (wall time, and CPU time user + system, which a busy machine disturbs less). Issue 18's goal:
 * ≤ 0.05 s; the run prints FAILED and exits 1 when the median difference is over it.
 * Needs `npm run build` first. Usage: node --import tsx bench/cli-startup.ts [--rounds N]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// BAYES_CLI: another build to compare (e.g. a copy of an older dist/cli.cjs).
const bin = process.env.BAYES_CLI ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'bayes.cjs');
const at = process.argv.indexOf('--rounds');
const rounds = at >= 0 ? Number(process.argv[at + 1]) : 15;

function measure(argv: string[]): { wall: number; cpu: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return { wall, cpu: cpuOfChildren() };
}

/** CPU seconds (user + system) of the children waited for so far, as a running total. */
let childCpu = 0;
function cpuOfChildren(): number {
  // Linux's /proc/self/stat fields 16 and 17: cutime and cstime in clock ticks (100 per second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const total = (Number(fields[13]) + Number(fields[14])) / 100;
  const delta = total - childCpu;
  childCpu = total;
  return delta;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[s.length >> 1]!, max: s[s.length - 1]! };
};
const f = (x: { min: number; median: number; max: number }) =>
  `${x.min.toFixed(3)} / ${x.median.toFixed(3)} / ${x.max.toFixed(3)} s`;

cpuOfChildren();
const node: { wall: number; cpu: number }[] = [];
const help: { wall: number; cpu: number }[] = [];
for (let i = 0; i < rounds; i++) {
  node.push(measure(['-e', '0']));
  help.push(measure([bin, '--help']));
}
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `bench/cli-startup.ts ${new Date().toISOString()}, load average ${load}, ` +
    `${rounds} alternating rounds; min / median / max`,
);
console.log(`  node -e 0        wall ${f(stats(node.map((r) => r.wall)))}, cpu ${f(stats(node.map((r) => r.cpu)))}`);
console.log(`  bayes --help     wall ${f(stats(help.map((r) => r.wall)))}, cpu ${f(stats(help.map((r) => r.cpu)))}`);
const wallDiff = stats(help.map((r, i) => r.wall - node[i]!.wall));
const cpuDiff = stats(help.map((r, i) => r.cpu - node[i]!.cpu));
console.log(`  difference       wall ${f(wallDiff)}, cpu ${f(cpuDiff)} (pairwise)`);
const ok = wallDiff.median <= 0.05;
const verdict = ok ? 'met   ' : 'FAILED';
console.log(`  goal ${verdict} start-up (median wall difference) ≤ 0.05 s: ${wallDiff.median.toFixed(3)} s`);
if (!ok) process.exitCode = 1;
