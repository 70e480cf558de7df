/** Runs a Python peer (Debian's /usr/bin/python3 with scikit-learn) on JSON input. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SCORE_TIE } from '../../server/src/engine/classifiers/probabilisticScores.js';

export const PYTHON = '/usr/bin/python3';

/** Why the peer cannot run, or undefined when `modules` import. */
export function pythonMissing(modules: string[]): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent: install Debian python3 to compare with the peer`;
  const r = spawnSync(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { encoding: 'utf8' });
  return r.status === 0
    ? undefined
    : `${PYTHON} cannot import ${modules.join(', ')} (install python3-sklearn): ${r.stderr.trim().split('\n').pop()}`;
}

/** Runs `script`, which reads JSON from stdin and prints JSON; returns the parsed output. */
export function runPython<T>(script: string, input: unknown): T {
  const r = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python peer failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/**
 * A Python function `tied(x)` for the scikit-learn peers of ROC curves and AUC: each score snapped
 * to the first (largest) score of its run of round-off ties, as rocCurve groups them (SCORE_TIE:
 * within 1e-12 relative of the run's first score), so that scikit-learn sees those ties as ties.
 */
export const PY_TIED_SCORES = `
def tied(x):
  import numpy as np
  x = np.asarray(x, dtype=float); out = x.copy(); first = None
  for i in np.argsort(x, kind='stable')[::-1]:
    if first is None or abs(x[first] - x[i]) > ${SCORE_TIE} * max(abs(x[first]), abs(x[i])): first = i
    out[i] = x[first]
  return out
`;
