/**
 * `bayes marginals` on the interchange formats runs from its own bundle without the language front
 * end (dist/cli-network.cjs, cli/formatMarginals.ts): the same bytes as the full command on every
 * format, evidence kind and error, and the cases it leaves to the full command (a `.bayes` model, a
 * usage mistake) left before it prints anything. Then the built CLI: that bundle holds no parser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marginalsCommand } from '../../../server/src/cli/marginals.js';
import { formatMarginalsFastPath } from '../../../server/src/cli/formatMarginals.js';
import { capture } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';

const data = (f: string) => join(repoRoot, 'examples', 'data', f);

/** The JSON answer without its timings (which differ from run to run), or the text as printed. */
const comparable = (out: string) =>
  out.startsWith('{') ? JSON.stringify({ ...(JSON.parse(out) as object), timings: undefined }) : out;

test('the fast path prints what the full command prints, answers and errors alike', async () => {
  for (const args of [
    [data('asia.xml'), '-e', 'xray=yes', '--json'],
    [data('asia.net'), '-e', 'xray=yes', '-e', 'smoke=no'],
    [data('asia.uai'), '--json'],
    [data('alarm.bif'), '-e', 'HYPOVOLEMIA=TRUE', '--method', 'lw', '--samples', '2000', '--json'],
    [data('asia.xml'), '--likelihood', 'xray=1,3', '--soft', 'smoke=0.4,0.6', '--json'],
    [data('waste.net'), '--json'], // continuous nodes: the hybrid answer
    [data('asia.xml'), '-e', 'xray=maybe'], // not a state: exit 1
    [data('no-such-file.bif')], // exit 1
    [data('README.md')], // not a network format: exit 1
  ]) {
    const fast = capture();
    const fastCode = await formatMarginalsFastPath.run(args, fast);
    const full = capture();
    const fullCode = await marginalsCommand.run(args, full);
    assert.equal(fastCode, fullCode, args.join(' '));
    assert.equal(comparable(fast.stdout), comparable(full.stdout), args.join(' '));
    assert.equal(fast.stderr, full.stderr, args.join(' '));
  }
});

test('a .bayes model and a usage mistake are left to the full command, with nothing printed', async () => {
  for (const args of [
    [join(repoRoot, 'examples', 'cancer.bayes'), '--json'],
    [data('asia.xml'), '--bogus'],
    [data('asia.xml'), '-e', 'xray'],
    [data('asia.xml'), '--method', 'magic'],
    [data('asia.xml'), data('asia.net')],
  ]) {
    const io = capture();
    assert.equal(await formatMarginalsFastPath.run(args, io), undefined, args.join(' '));
    assert.equal(io.stdout + io.stderr, '');
  }
});

test('the built fast-path bundle holds the network readers but not the language front end', () => {
  const bundle = readFileSync(join(repoRoot, 'dist', 'cli-network.cjs'), 'utf8');
  assert.match(bundle, /function readXmlBif\b/);
  assert.match(bundle, /function readHuginHybrid\b/);
  assert.doesNotMatch(bundle, /chevrotain/i);
  assert.doesNotMatch(bundle, /server\/src\/language\/parser\.ts/);
});
