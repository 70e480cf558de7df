/** Runs a Python peer (Debian's /usr/bin/python3 with scikit-learn) on JSON input. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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
