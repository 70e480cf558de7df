/**
 * `bayes predict` on 10^5 ALARM rows with random missing values, the whole process (node start,
 * reading alarm.bif and the CSV, one junction tree, a propagation per distinct evidence pattern,
 * writing the CSV), against pomegranate 0.14's `predict_proba` (loopy belief propagation; Debian
 * python3-pomegranate) on the first --peer-rows rows of the same file (the whole process too:
 * python start, import, model build, CSV read, predict). pomegranate needs ~10–60 ms a row here, so
 * 10^5 rows would take hours: its per-row rate is measured on the subset and its time for every row
 * is extrapolated from it (printed as such). pgmpy's `BayesianNetwork.predict` (v0.1.23) runs when a
 * pgmpy checkout is found (BAYES_PGMPY_DIR, .cache/pgmpy or /work/pgmpy; otherwise skipped with a
 * note) on the first --pgmpy-rows rows (default 200: ~0.1–0.2 s a row), extrapolated alike; it
 * takes no missing cells, so bench/peers/pgmpy_predict.py calls it once per set of observed columns
 * and keeps the target from its joint MAP of the unobserved variables. Peak resident memory of
 * each process is reported (GNU time's %M). The rows are generated: forward-sampled from ALARM
 * with --seed, each cell but the target's hidden with probability --hidden.
 * Usage: npm run bench:predict [-- --rows N] [--peer-rows N] [--pgmpy-rows N] [--hidden F] [--seed S]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseRowsCsv, readBifFile } from './support/caseRows.js';
import { exportNetwork } from './peers/exportNetwork.js';
import { loadAverage } from './support/report.js';
import { PYTHON, pythonMissing } from '../test/support/python.js';
import type { BayesianNetwork } from '../server/src/engine/network.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const rows = option('--rows', 100000);
const peerRows = option('--peer-rows', 1000);
const pgmpyRows = option('--pgmpy-rows', 200);
const hidden = option('--hidden', 0.2);
const seed = option('--seed', 1);
const TARGET = 'HYPOVOLEMIA';
const BIF = join(root, 'examples', 'data', 'alarm.bif');

/** Runs a command under GNU time: wall seconds, user + system CPU seconds, peak RSS in MB, stdout. */
function timed(
  command: string,
  argv: string[],
  env = process.env,
): { seconds: number; cpu: number; mb: number; stdout: string } {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M %U %S', command, ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env,
  });
  const m = /TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${command} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { seconds: Number(m[1]), cpu: Number(m[3]) + Number(m[4]), mb: Number(m[2]) / 1024, stdout: r.stdout };
}

function pgmpyDir(): string | undefined {
  const candidates = [process.env.BAYES_PGMPY_DIR, join(root, '.cache', 'pgmpy'), '/work/pgmpy'];
  return candidates.find((d): d is string => !!d && existsSync(join(d, 'pgmpy')));
}

/** pgmpy's predict on the first pgmpyRows rows, its time for every row extrapolated; agreement with ours. */
function pgmpyPredict(pgmpy: string, net: BayesianNetwork, csv: string, lines: string[], oursSeconds: number): void {
  const spec = join(dir, 'alarm-pgmpy.json');
  writeFileSync(spec, JSON.stringify(exportNetwork(net, [])));
  const script = join(here, 'peers', 'pgmpy_predict.py');
  let peer;
  try {
    peer = timed(PYTHON, [script, spec, csv, TARGET, String(pgmpyRows)], { ...process.env, PYTHONPATH: pgmpy });
  } catch (e) {
    console.log(`pgmpy           skipped: ${(e as Error).message.split('\n').filter(Boolean).pop()}`);
    return;
  }
  const out = JSON.parse(peer.stdout) as {
    build_s: number;
    predict_s: number;
    rows: number;
    groups: number;
    predicted: string[];
  };
  const perRow = out.predict_s / out.rows;
  const extrapolated = peer.seconds - out.predict_s + perRow * rows;
  const agree = out.predicted.filter((state, r) => lines[r + 1]!.split(',')[1] === state).length;
  console.log(
    `pgmpy           ${out.rows} rows (${out.groups} sets of observed columns): ${peer.seconds.toFixed(2)} s whole process ` +
      `(predict ${out.predict_s.toFixed(2)} s; CPU ${peer.cpu.toFixed(2)} s), ${(perRow * 1e3).toFixed(1)} ms a row, ` +
      `peak RSS ${peer.mb.toFixed(0)} MB`,
  );
  console.log(
    `                rows/s: bayes predict ${(rows / oursSeconds).toFixed(0)}, pgmpy ${(1 / perRow).toFixed(1)} (predict only, on its ${out.rows}-row subsample)`,
  );
  console.log(
    `                ${rows} rows extrapolated (its fixed cost + ${rows} × its per-row time): ${extrapolated.toFixed(0)} s`,
  );
  console.log(
    `ratio           pgmpy (extrapolated) / bayes predict, whole processes: ${(extrapolated / oursSeconds).toFixed(0)}×`,
  );
  console.log(
    `agreement       pgmpy's target (from its joint MAP) = our most probable value on ${agree} of ${out.rows} rows`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'bench-predict-'));
try {
  console.log(
    `bench:predict — ALARM, ${rows} rows, ${hidden * 100}% of cells hidden, seed ${seed}; load ${loadAverage()}`,
  );
  const net = readBifFile(BIF);
  const csv = join(dir, 'rows.csv');
  writeFileSync(csv, caseRowsCsv(net, rows, hidden, seed, TARGET));
  const ours = timed(process.execPath, [
    join(root, 'bin', 'bayes.cjs'),
    'predict',
    BIF,
    '--data',
    csv,
    '--target',
    TARGET,
    '--csv',
  ]);
  const lines = ours.stdout.trimEnd().split('\n');
  if (lines.length !== rows + 1) throw new Error(`bayes predict wrote ${lines.length - 1} rows, not ${rows}`);
  console.log(
    `bayes predict   ${rows} rows: ${ours.seconds.toFixed(2)} s whole process ` +
      `(${((ours.seconds / rows) * 1e6).toFixed(1)} µs a row; CPU ${ours.cpu.toFixed(2)} s), peak RSS ${ours.mb.toFixed(0)} MB`,
  );
  const why = pythonMissing(['pomegranate']);
  if (why) console.log(`pomegranate     skipped: ${why}`);
  else {
    const spec = join(dir, 'alarm.json');
    writeFileSync(spec, JSON.stringify(exportNetwork(net, [])));
    const script = join(here, 'peers', 'pomegranate_predict.py');
    const peer = timed(PYTHON, [script, spec, csv, TARGET, String(peerRows)]);
    const out = JSON.parse(peer.stdout) as {
      build_s: number;
      predict_s: number;
      rows: number;
      probabilities: number[][];
    };
    // Its fixed cost (python, import, build, reading) once, predict_proba's per-row time for every row.
    const perRow = out.predict_s / out.rows;
    const extrapolated = peer.seconds - out.predict_s + perRow * rows;
    // pomegranate's loopy BP is approximate on ALARM (it has loops): its distance to ours, exact.
    let maxDiff = 0;
    out.probabilities.forEach((p, r) => {
      const cells = lines[r + 1]!.split(',');
      p.forEach((x, s) => (maxDiff = Math.max(maxDiff, Math.abs(x - Number(cells[2 + s])))));
    });
    console.log(
      `pomegranate     ${out.rows} rows: ${peer.seconds.toFixed(2)} s whole process (predict_proba ${out.predict_s.toFixed(2)} s, ` +
        `build ${out.build_s.toFixed(2)} s; CPU ${peer.cpu.toFixed(2)} s), ${(perRow * 1e3).toFixed(2)} ms a row, ` +
        `peak RSS ${peer.mb.toFixed(0)} MB`,
    );
    console.log(
      `                ${rows} rows extrapolated (its fixed cost + ${rows} × its per-row time): ${extrapolated.toFixed(0)} s`,
    );
    console.log(
      `ratio           pomegranate (extrapolated) / bayes predict, whole processes: ${(extrapolated / ours.seconds).toFixed(0)}×`,
    );
    console.log(
      `agreement       max |P_pomegranate − P_exact| over its ${out.rows} rows: ${maxDiff.toExponential(2)} (loopy BP)`,
    );
  }
  const pgmpy = pgmpyDir();
  if (!pgmpy)
    console.log(
      'pgmpy           skipped: no pgmpy checkout (BAYES_PGMPY_DIR, .cache/pgmpy or /work/pgmpy); see bench/peers/pgmpy_setup.sh',
    );
  else pgmpyPredict(pgmpy, net, csv, lines, ours.seconds);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
