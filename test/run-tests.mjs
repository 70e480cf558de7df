// Runs every `*.test.ts` under the given folders (default: test/unit) with node's test runner.
// Node 20's `--test` takes no globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const passThrough = process.argv.slice(2).filter((a) => a.startsWith('-'));
// A test that waits for something that never comes fails with its name instead of stalling CI.
if (!passThrough.some((a) => a.startsWith('--test-timeout'))) passThrough.push('--test-timeout=900000');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
for (const r of roots.length ? roots : ['test/unit']) walk(r);
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}
// Two files at a time, unless told otherwise: test:slow runs one at a time, because its latency test
// (lspUnderLoad) measures a language server, and ALARM's EM beside it on 2 cores pushed answers past 1 s.
const res = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    ...(passThrough.some((a) => a.startsWith('--test-concurrency')) ? [] : ['--test-concurrency=2']),
    ...passThrough,
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(res.status ?? 1);
