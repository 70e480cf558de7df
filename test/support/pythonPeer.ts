/**
 * Runs an independent peer (scikit-learn under Debian's /usr/bin/python3) on JSON input and
 * returns its JSON output, or the reason it cannot run so the test can `t.skip(reason)`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PYTHON = '/usr/bin/python3';

let sklearnMissing: string | undefined | null = null;

/** undefined when scikit-learn is usable, else why not. */
export function sklearnUnavailable(): string | undefined {
  if (sklearnMissing !== null) return sklearnMissing;
  if (!existsSync(PYTHON)) return (sklearnMissing = `${PYTHON} not found: scikit-learn peer comparison skipped`);
  const r = spawnSync(PYTHON, ['-c', 'import sklearn, numpy'], { encoding: 'utf8' });
  sklearnMissing = r.status === 0 ? undefined : `${PYTHON} cannot import scikit-learn (${r.stderr.trim().split('\n').pop()}): peer comparison skipped`;
  return sklearnMissing;
}

export function runPython<T>(script: string, input: unknown): T {
  const r = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python peer failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
