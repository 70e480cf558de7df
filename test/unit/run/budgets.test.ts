/**
 * Sizes from the declarations are checked before anything is allocated, and said on the
 * statement that asked: a CPT with 25 parents, sixty wide tables, 10^12 samples. The CLI's
 * --timeout and --max-memory stop any command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errors, run } from './helpers.js';
import { runWatched } from '../../../server/src/cli/limits.js';
import { repoRoot } from '../../support/shared.js';
import { inferenceOptions } from '../../../server/src/run/inferenceOptions.js';
import { budgetsFor } from '../../../server/src/engine/budget.js';

const binary = (names: string[]) => names.map((n) => `  variable ${n} { a, b }\n`).join('');

test('a table of 2^26 entries (25 binary parents) is refused on its declaration, in a fraction of a second', async () => {
  const parents = Array.from({ length: 25 }, (_, i) => `A${i}`);
  const text =
    `network N {\n${binary([...parents, 'C'])}  P(C | ${parents.join(', ')}) ~ Dirichlet(1)\n` +
    `${parents.map((p) => `  P(${p}) ~ Dirichlet(1)\n`).join('')}}\ndata D {\n  ${[...parents, 'C'].join(', ')}\n  ${Array(26).fill('a').join(', ')}\n}\nlearn N from D\n`;
  const started = performance.now();
  const result = await run(text);
  assert.ok(performance.now() - started < 5000);
  const [e] = errors(result);
  assert.deepEqual([e?.code, e?.line], ['compile-error', 27]);
  assert.equal(e?.message, "the table of 'C' needs 67,108,864 entries, over the budget of 16,777,216");
});

test('sixty tables that each fit are refused together when the network is over its total budget', async () => {
  const names = Array.from({ length: 82 }, (_, i) => `A${i}`);
  const parents = names.slice(0, 22);
  const children = names.slice(22);
  const text =
    `network N {\n${binary(names)}${parents.map((p) => `  P(${p}) ~ Dirichlet(1)\n`).join('')}` +
    `${children.map((c) => `  P(${c} | ${parents.join(', ')}) ~ Dirichlet(1)\n`).join('')}}\ndata D {\n  A0\n  a\n}\nlearn N from D\n`;
  const result = await run(text);
  const [e] = errors(result);
  assert.equal(e?.code, 'compile-error');
  assert.match(e!.message, /^the network \(all its tables\) needs 503,316,524 entries, over the budget of 67,108,864$/);
});

test('10^12 samples is refused on the option, not run for days', async () => {
  const text =
    'network N {\n  variable A : bool\n  P(A) = 0.5\n}\nquery P(A) in N using likelihood_weighting { samples: 1e12 }\n';
  const result = await run(text);
  const [e] = errors(result);
  assert.deepEqual([e?.code, e?.line], ['compile-error', 4]);
  assert.equal(e?.message, '1,000,000,000,000 samples is over the budget of 100,000,000 a query');
});

const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), ...args], { encoding: 'utf8', timeout: 60_000 });

test('bayes --timeout stops a long run with exit 3 and says why; a run within it is unchanged', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-budget-'));
  const slow = join(dir, 'slow.bayes');
  writeFileSync(
    slow,
    'network N {\n  variable A, B : bool\n  P(A) = 0.3\n  P(B | A) { true: 0.9, false: 0.2 }\n}\n' +
      'query P(A | B = true) in N using likelihood_weighting { samples: 100000000, seed: 1 }\n',
  );
  const started = performance.now();
  const r = cli(['run', slow, '--timeout', '1']);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /bayes: stopped after 1 s \(--timeout\)/);
  assert.ok(performance.now() - started < 20_000);
  const fine = cli(['run', '--timeout=60', join(repoRoot, 'examples/cancer.bayes')]);
  assert.equal(fine.status, 0, fine.stderr);
  assert.match(fine.stdout, /expectations hold/);
});

test('bayes --max-memory sets the table budget: a sixteenth of 400 MB allows tables of 3,276,800 entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-budget-'));
  const model = join(dir, 'm.bayes');
  const parents = Array.from({ length: 21 }, (_, i) => `A${i}`);
  writeFileSync(
    model,
    `network N {\n${binary([...parents, 'C'])}  P(C | ${parents.join(', ')}) ~ Dirichlet(1)\n` +
      `${parents.map((p) => `  P(${p}) ~ Dirichlet(1)\n`).join('')}}\ndata D {\n  ${[...parents, 'C'].join(', ')}\n` +
      `  ${Array(22).fill('a').join(', ')}\n}\nlearn N from D\n`,
  );
  // Well above what Node itself takes, so the watchdog never fires before the budget check.
  const tight = cli(['run', model, '--max-memory', '400']);
  assert.equal(tight.status, 1, tight.stderr);
  assert.match(tight.stdout, /the table of 'C' needs 4,194,304 entries, over the budget of 3,276,800/);
  assert.equal(cli(['run', model, '--max-memory', 'lots']).status, 2);
  assert.match(cli(['run', model, '--max-memory', '10']).stderr, /--max-memory takes at least 100 MB/);
});

test('the watchdog stops a command whose process grows past --max-memory, typed arrays included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-budget-'));
  const greedy = join(dir, 'greedy.cjs');
  // Typed arrays live outside the V8 heap: only the resident size shows them.
  writeFileSync(greedy, 'const kept = []; setInterval(() => kept.push(new Float64Array(2 ** 22).fill(1)), 5);');
  let said = '';
  const code = await runWatched(greedy, [], { maxMemoryMb: 300 }, (t) => {
    said += t;
  });
  assert.equal(code, 3);
  assert.match(said, /^bayes: stopped at \d+ MB of memory, over --max-memory 300\n$/);
});

test("a query's exact-or-sampler decision uses the run's memory setting, not the default", () => {
  const options = inferenceOptions(undefined, undefined, undefined, budgetsFor(100));
  assert.equal(options.memoryBytes, 100 * 2 ** 20);
  assert.equal(inferenceOptions(undefined, undefined).memoryBytes, undefined);
});

test('iterations, restarts and replicates over their budgets are errors on the number, before any work', async () => {
  const model = `network N {
  variable A, B : bool
  P(A) ~ Dirichlet(1)
  P(B | A) ~ Dirichlet(1)
}
data D {
  A, B
  true, ?
  false, true
  true, true
}
learn N from D by em { iterations: 1e9, tolerance: 0 }
learn N from D by em { restarts: 20000 }
query strength S from D { replicates: 1e9 }
learn structure T from D by tabu { tabu: 1e12 }
learn N from D by em { iterations: 1000000, restarts: 1, tolerance: 1 }
`;
  const result = await run(model);
  assert.deepEqual(errors(result), [
    { code: 'compile-error', line: 11, message: 'iterations: 1e9 is over the budget of 1,000,000' },
    { code: 'compile-error', line: 12, message: 'restarts: 20000 is over the budget of 10,000' },
    { code: 'compile-error', line: 13, message: 'replicates: 1e9 is over the budget of 100,000' },
    { code: 'compile-error', line: 14, message: 'tabu: 1e12 is over the budget of 1,000,000' },
  ]);
});
