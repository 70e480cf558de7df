/**
 * Ctrl+C under --timeout / --max-memory, where the command runs in a watched worker thread (a
 * worker sees no signals): the watching thread relays it, so the command stops and prints the
 * same summary with the same exit (130) as without those options; work that cannot hear it is
 * stopped at once, as the signal stops it without them. Each waits for a sign on the terminal
 * that the work has begun (a progress line; the test hook's line) before the signal, so nothing
 * races; a slow model is the run worker's test hook (`//! test: spin`, BAYES_TEST_HOOKS=1).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/shared.js';
import { interruptOnTerminal, tempFile } from '../../support/cli.js';

const cli = join(repoRoot, 'dist', 'cli.cjs');
const noBuild = existsSync(cli) ? false : 'dist/ is not built: run node esbuild.mjs';
const noScript = spawnSync('script', ['--version']).status === 0 ? false : "util-linux's script is not installed";
const skip = noBuild || noScript;
const alarm = join(repoRoot, 'examples', 'data', 'alarm.bif');
const holdout = join(repoRoot, 'examples', 'data', 'alarm_holdout.csv');

/** The summary line, without the terminal's line erase. */
function summary(out: string): string | undefined {
  return /bayes \w+: interrupted after [^\r\n]*/.exec(out)?.[0];
}

describe('Ctrl+C under --timeout and --max-memory', () => {
  for (const limit of [
    ['--timeout', '300'],
    ['--max-memory', '2000'],
  ]) {
    it(
      `bootstrap (worker threads, a SIGINT listener) with ${limit[0]}: its summary, exit 130, as without`,
      { skip },
      async () => {
        const args = ['structure', holdout, '--method', 'hillclimb', '--bootstrap', '100000'];
        const ready = /bootstrap \d+\/100000 replicates/;
        for (const r of [
          await interruptOnTerminal(cli, args, ready),
          await interruptOnTerminal(cli, [...args, ...limit], ready),
        ]) {
          assert.equal(r.code, 130, r.out);
          assert.match(
            summary(r.out) ?? '',
            /^bayes structure: interrupted after \d+ of 100000 bootstrap replicates; no arc strengths printed$/,
            r.out,
          );
          assert.doesNotMatch(r.out, /stopped|internal error/);
        }
      },
    );

    it(`a sampler (whileInterruptible) with ${limit[0]}: how many samples were drawn, exit 130`, { skip }, async () => {
      const args = ['marginals', alarm, '--method', 'lw', '--samples', '100000000'];
      const r = await interruptOnTerminal(cli, [...args, ...limit], /lw \d+\/100000000/);
      assert.equal(r.code, 130, r.out);
      assert.match(
        summary(r.out) ?? '',
        /^bayes marginals: interrupted after [\d,]+ of 100,000,000 samples \(lw\); no marginals printed$/,
      );
    });
  }

  it(
    'a model busy in a loop that hears no Ctrl+C (the test hook spin 60000): stopped at once, exit 130, nothing printed',
    { skip },
    async () => {
      const { file } = tempFile(
        'slow.bayes',
        '//! test: spin 60000\nvariable A { yes, no }\nP(A) = { yes: 0.5, no: 0.5 }\n',
      );
      const hooks = { BAYES_TEST_HOOKS: '1' };
      // Without the options the signal ends the process (status 130 through script -e).
      const plain = await interruptOnTerminal(cli, ['run', file], /test hook: spin 60000/, hooks);
      assert.equal(plain.code, 130, plain.out);
      const started = performance.now();
      const watched = await interruptOnTerminal(cli, ['run', file, '--timeout', '300'], /test hook: spin 60000/, hooks);
      const ms = performance.now() - started;
      assert.equal(watched.code, 130, watched.out);
      // The worker is terminated after the grace (1.5 s), far inside the minute it would spin.
      assert.ok(ms < 30_000, `${ms} ms`);
      for (const r of [plain, watched]) {
        assert.equal(r.out.replace(/test hook: spin 60000\s*/, '').trim(), '', r.out);
      }
    },
  );
});
