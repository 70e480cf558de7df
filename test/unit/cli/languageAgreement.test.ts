/**
 * The language and the CLI agree (issue 27 item 6): `learn structure … { ess }` as
 * `bayes structure --ess`, mixture components numbered by their means (ascending) in both, and
 * `bayes structure --reference` suggesting only what the method takes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';

const asiaSample = join(repoRoot, 'examples', 'asia_sample.csv');

async function runModel(dir: string, text: string) {
  const file = join(dir, 'm.bayes');
  writeFileSync(file, text);
  const io = capture(dir);
  const code = await main(['run', file, '--json'], io);
  return { code, result: JSON.parse(io.stdout), stderr: io.stderr };
}

async function cliJson(args: string[]) {
  const io = capture();
  assert.equal(await main(args, io), 0, io.stderr);
  return JSON.parse(io.stdout);
}

test('learn structure … by hillclimb { score: bdeu, ess: 10 } takes ess, as bayes structure --ess', async () => {
  const { dir } = tempFile('x', '');
  try {
    copyFileSync(asiaSample, join(dir, 'asia.csv'));
    const { result } = await runModel(
      dir,
      'data D from "asia.csv"\nlearn structure S10 from D by hillclimb { score: bdeu, ess: 10 }\n' +
        'learn structure S1 from D by hillclimb { score: bdeu }\n',
    );
    assert.deepEqual(
      result.diagnostics.filter((d: { severity: string }) => d.severity !== 'information'),
      [],
    );
    const [s10, s1] = result.results.filter((r: { kind: string }) => r.kind === 'structure');
    const cli10 = await cliJson([
      'structure',
      asiaSample,
      '--method',
      'hillclimb',
      '--score',
      'bdeu',
      '--ess',
      '10',
      '--json',
    ]);
    const cli1 = await cliJson(['structure', asiaSample, '--method', 'hillclimb', '--score', 'bdeu', '--json']);
    assert.ok(Math.abs(s10.score - cli10.score) < 1e-6, `${s10.score} vs ${cli10.score}`);
    assert.ok(Math.abs(s1.score - cli1.score) < 1e-6, `${s1.score} vs ${cli1.score}`);
    assert.ok(Math.abs(s10.score - s1.score) > 1, 'ess changes the BDeu score');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes mixture numbers components by their means, ascending, as the language does', async (t) => {
  const faithful = sharedFile('tables', 'old-faithful', 'faithful.csv');
  if (!faithful) return t.skip(NO_SHARED);
  const cli = await cliJson(['mixture', faithful, '--k', '2', '--json']);
  const cliMeans = cli.means.map((m: number[]) => m[0]);
  assert.ok(cliMeans[0] < cliMeans[1], `CLI means ${cliMeans}`);
  assert.ok(Math.abs(cliMeans[0] - 2.04) < 0.01, `component 1 is the short eruptions: ${cliMeans}`);
  const { dir } = tempFile('x', '');
  try {
    copyFileSync(faithful, join(dir, 'faithful.csv'));
    const { result } = await runModel(
      dir,
      'data F from "faithful.csv"\nmixture G = gaussians(F[x1, x2], k: 2)\nlearn G by em { seed: 1 }\n' +
        'query estimate G.mean1_x1\nquery estimate G.mean2_x1\n',
    );
    const estimates = result.results.filter((r: { kind: string }) => r.kind === 'estimate');
    assert.equal(estimates.length, 2, JSON.stringify(result.diagnostics));
    const language = estimates.map((e: { value: number }) => e.value);
    assert.ok(
      Math.abs(language[0] - cliMeans[0]) < 0.01 && Math.abs(language[1] - cliMeans[1]) < 0.01,
      `${language} vs ${cliMeans}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes structure --method pc --reference never suggests --prune (PC refuses it)', async () => {
  const vs = ['asia', 'tub', 'smoke', 'lung', 'bronc', 'either', 'xray', 'dysp'];
  const bif = [
    'network empty {}',
    ...vs.map((v) => `variable ${v} { type discrete [ 2 ] { yes, no }; }`),
    ...vs.map((v) => `probability ( ${v} ) { table 0.5, 0.5; }`),
  ].join('\n');
  const { file: reference, dir } = tempFile('empty.bif', bif + '\n');
  try {
    const io = capture();
    // With alpha 0.99 PC keeps arcs the BIC score would drop (smoke->asia lowers it by 27.7).
    assert.equal(
      await main(['structure', asiaSample, '--method', 'pc', '--alpha', '0.99', '--reference', reference], io),
      0,
      io.stderr,
    );
    assert.match(io.stdout, /extra .*\(-\d/);
    assert.doesNotMatch(io.stdout, /--prune/);
    assert.match(io.stdout, /PC does not use the score/);
    // --prune itself is refused with PC, which is why it must not be suggested.
    assert.equal(await main(['structure', asiaSample, '--method', 'pc', '--prune'], capture()), 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
