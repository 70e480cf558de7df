/**
 * pgmpy as a peer for structure learning: release v0.1.23 from .cache/pgmpy (put there by
 * bench/peers/pgmpy_setup.sh from a git mirror; never committed), run by Debian's python3 with
 * Debian's pandas, networkx, scipy, statsmodels. Absent → pgmpyMissing() says why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CategoricalDataset } from '../../server/src/engine/categoricalData.js';
import { PYTHON } from './python.js';

/** .cache/pgmpy in the repository, or the folder BAYES_PGMPY_DIR names. */
export const PGMPY_DIR = process.env.BAYES_PGMPY_DIR ?? join(import.meta.dirname, '..', '..', '.cache', 'pgmpy');
const SCRIPT = join(import.meta.dirname, '..', '..', 'bench', 'peers', 'pgmpy_structure.py');
/** PYTHONHASHSEED fixed: pgmpy's hill climbing breaks ties in a set's order, which follows the string hashes. */
const env = () => ({ ...process.env, PYTHONPATH: PGMPY_DIR, PYTHONHASHSEED: '0' });

/** Why pgmpy cannot run, or undefined when it imports. */
export function pgmpyMissing(): string | undefined {
  if (!existsSync(join(PGMPY_DIR, 'pgmpy'))) {
    return `pgmpy is absent (${PGMPY_DIR}): run bench/peers/pgmpy_setup.sh PGMPY.git OPT_EINSUM.git to compare with it`;
  }
  const r = spawnSync(PYTHON, ['-c', 'import pgmpy.estimators'], { encoding: 'utf8', env: env() });
  return r.status === 0
    ? undefined
    : `pgmpy does not import (install Debian's python3-pandas python3-networkx python3-statsmodels ` +
        `python3-sklearn python3-tqdm python3-joblib python3-pyparsing): ${r.stderr.trim().split('\n').pop()}`;
}

/** The CSV the peer reads: a header of names, then one row of state codes per record. */
export function writeCodesCsv(data: CategoricalDataset, file: string): void {
  const lines = [data.attributes.map((a) => a.name).join(',')];
  for (let r = 0; r < data.rowCount; r++) lines.push(data.columns.map((c) => c[r]).join(','));
  writeFileSync(file, lines.join('\n') + '\n');
}

export interface PgmpyPc {
  seconds: number;
  edges: Array<[number, number]>;
}
export interface PgmpyHillClimb {
  seconds: number;
  parents: number[][];
}

function run<T>(args: string[]): T {
  const r = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', env: env(), maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`pgmpy failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(r.stdout) as T;
}

/** pgmpy's PC skeleton (variant "stable", chi_square, level alpha, one job), timed inside Python. */
export const pgmpyPcSkeleton = (csv: string, alpha: number): PgmpyPc => run<PgmpyPc>([csv, 'pc', String(alpha)]);
/** pgmpy's HillClimbSearch with BicScore (its defaults otherwise), timed inside Python. */
export const pgmpyHillClimb = (csv: string): PgmpyHillClimb => run<PgmpyHillClimb>([csv, 'hc']);
