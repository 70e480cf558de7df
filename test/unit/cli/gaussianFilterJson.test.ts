/**
 * `bayes filter --json` on a Gaussian network over time is written step by step
 * (cli/gaussianFilterJson.ts), never built as one object: its bytes must be exactly those of
 * `JSON.stringify(answer) + '\n'` of the answer object (cli/filterGaussian.ts `gaussianAnswer`, as
 * the command printed it before) — on random models with and without smoothing and forecasts, on
 * names a JS object orders or escapes specially, through the command line on a model file, and in
 * chunks of bounded size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../server/src/cli.js';
import { kalmanSmoother } from '../../../server/src/engine/dynamic/kalman.js';
import type { GaussianTwoSliceNetwork } from '../../../server/src/engine/dynamic/gaussianSlice.js';
import { gaussianAnswer } from '../../../server/src/cli/filterGaussian.js';
import { writeGaussianJson } from '../../../server/src/cli/gaussianFilterJson.js';
import { capture } from '../../support/cli.js';
import { randomGaussianTwoSlice, sampleGaussianSequence, gaussianModelFiles } from '../../support/gaussianTwoSlice.js';

/** The streamed text and its chunks. */
function streamed(
  net: GaussianTwoSliceNetwork,
  r: ReturnType<typeof kalmanSmoother>,
): { text: string; chunks: string[] } {
  const chunks: string[] = [];
  writeGaussianJson(net, r, (c) => chunks.push(c));
  return { text: chunks.join(''), chunks };
}

const objectBuilt = (net: GaussianTwoSliceNetwork, r: ReturnType<typeof kalmanSmoother>) =>
  JSON.stringify(gaussianAnswer(net, r)) + '\n';

test('random models of 1–6 variables: the streamed JSON is byte for byte the object-built one (smoothed or not, with or without a forecast, a note)', () => {
  let cases = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const n = 1 + (seed % 6);
    const T = 1 + ((seed * 7) % 40);
    const net = randomGaussianTwoSlice(500 + seed, n);
    const observations = sampleGaussianSequence(500 + seed, net, T, 0.4);
    const predict = seed % 3;
    for (const options of [
      // Smoothed: steps with `smoothed`, `mostLikely`.
      { predict },
      { predict, smooth: false },
      // Smoothing over the budget: filtering only, with a note.
      { predict, maxEntries: 2 * n * (T + predict) + 1 },
    ]) {
      const r = kalmanSmoother(net, observations, options);
      assert.equal(streamed(net, r).text, objectBuilt(net, r), `seed ${seed} ${JSON.stringify(options)}`);
      cases++;
    }
  }
  assert.equal(cases, 72);
});

test('names JS orders or escapes its own way: array indices first, __proto__, t beside a step’s t, quotes, controls and non-ASCII', () => {
  const net = randomGaussianTwoSlice(77, 7);
  const named = { ...net, name: 'Tr"ack\\ing\u2028', variables: ['b', '10', 't', '__proto__', 'a"q', '2', 'é\u0007'] };
  const observations = sampleGaussianSequence(77, net, 6, 0.5);
  const r = kalmanSmoother(named, observations, { predict: 2 });
  const text = streamed(named, r).text;
  assert.equal(text, objectBuilt(named, r));
  // The object's order: "2" and "10" before the names, and a forecast's t is the variable's moments.
  const first = JSON.parse(text) as { steps: { filtered: object }[]; predicted: Record<string, unknown>[] };
  assert.deepEqual(Object.keys(first.steps[0]!.filtered).slice(0, 2), ['2', '10']);
  assert.deepEqual(Object.keys(first.predicted[0]!).slice(0, 3), ['2', '10', 't']);
  assert.equal(typeof first.predicted[0]!.t, 'object');
});

test('a long sequence is written in chunks of about 64 KB, together the whole answer', () => {
  const net = randomGaussianTwoSlice(90, 3);
  const observations = sampleGaussianSequence(90, net, 3000, 0.3);
  const r = kalmanSmoother(net, observations, { predict: 5 });
  const { text, chunks } = streamed(net, r);
  assert.equal(text, objectBuilt(net, r));
  assert.ok(chunks.length > 5, `${chunks.length} chunks`);
  // Each chunk but the last reaches 64 Ki characters by at most one step's text.
  for (const c of chunks.slice(0, -1)) assert.ok(c.length >= 65536 && c.length < 65536 + 2000, `${c.length}`);
});

test('bayes filter --json through the command line: the same bytes as the object-built answer of the model file', async () => {
  for (const [seed, n, T, predict] of [
    [91, 2, 30, 0],
    [92, 4, 200, 3],
  ] as const) {
    const net = randomGaussianTwoSlice(seed, n);
    const observations = sampleGaussianSequence(seed, net, T, 0.5);
    const { file, csv } = gaussianModelFiles(net, observations);
    const io = capture();
    const ahead = predict ? ['--predict', String(predict)] : [];
    const args = ['filter', file, '--network', net.name, '--observations', csv, '--json', ...ahead];
    assert.equal(await main(args, io), 0, io.stderr);
    assert.equal(io.stdout, objectBuilt(net, kalmanSmoother(net, observations, { predict })), `seed ${seed}`);
  }
});
