/**
 * `bayes marginals X.net` on a network with continuous nodes runs from its own small bundle
 * (dist/cli-gaussian.cjs, cli/gaussianMarginals.ts): the same bytes as the full command, and every
 * case it does not know (another option, a usage mistake, a discrete network) answered by the full
 * command as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { marginalsCommand } from '../../../server/src/cli/marginals.js';
import { gaussianFastPath } from '../../../server/src/cli/gaussianMarginals.js';
import { capture } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';

const waste = join(repoRoot, 'examples', 'data', 'waste.net');
const asia = join(repoRoot, 'examples', 'data', 'asia.net');

test('the fast path prints what the full command prints (waste.net, discrete and continuous evidence)', async () => {
  for (const args of [
    [waste, '--json'],
    [waste, '-e', 'B=stable', '-e', 'L=1.1', '--json'],
    [waste, '-e', 'D=3'],
  ]) {
    const fast = capture();
    assert.equal(await gaussianFastPath.run(args, fast), 0, fast.stderr);
    const full = capture();
    assert.equal(await marginalsCommand.run(args, full), 0, full.stderr);
    assert.equal(fast.stdout, full.stdout);
    assert.equal(fast.stderr, full.stderr);
  }
});

test('the fast path leaves other cases to the full command, which reports them as before', async () => {
  for (const args of [
    [waste, '--likelihood', 'B=1,2'], // an option it does not take
    [waste, '-e', 'B'], // a usage mistake
    [waste, '-e', 'B=stable', '-e', 'B=unstable'],
    [asia, '--json'], // a discrete network
    [join(repoRoot, 'examples', 'data', 'gaussian.bayes')], // not a NET file
  ])
    assert.equal(await gaussianFastPath.run(args, capture()), undefined, args.join(' '));
  const refused = capture();
  assert.equal(await main(['marginals', waste, '--budget', '5'], refused), 1);
  assert.match(refused.stderr, /--budget is not available for networks with continuous nodes/);
  const virtual = capture();
  assert.equal(await main(['marginals', waste, '--likelihood', 'B=1,2'], virtual), 0, virtual.stderr);
  assert.match(virtual.stdout, /B \(virtual evidence\): stable 0\.739130/); // 0.85·1 / (0.85·1 + 0.15·2)
  const usage = capture();
  assert.equal(await main(['marginals', waste, '-e', 'B'], usage), 2);
  assert.match(usage.stderr, /--evidence wants VAR=STATE, got 'B'/);
  const missing = capture();
  assert.equal(await gaussianFastPath.run([join(repoRoot, 'no-such.net')], missing), 1);
  assert.match(missing.stderr, /no-such\.net/);
});

test('the built CLI answers a continuous NET from dist/cli-gaussian.cjs, as the in-process command', async (t) => {
  const cli = join(repoRoot, 'dist', 'cli.cjs');
  if (!existsSync(join(repoRoot, 'dist', 'cli-gaussian.cjs'))) return t.skip('not built (node esbuild.mjs)');
  const args = [waste, '-e', 'W=household', '-e', 'Mout=3.5', '--json'];
  const r = spawnSync(process.execPath, [cli, 'marginals', ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const full = capture();
  await marginalsCommand.run(args, full);
  assert.equal(r.stdout, full.stdout);
});
