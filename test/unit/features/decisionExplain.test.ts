import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainEntry } from '../../../server/src/features/resultExplain.js';
import { example, resultsOf, run } from '../run/networkHelpers.js';

test('the policy hover shows the expected utilities behind each choice, impossible contexts left out', async () => {
  const result = await run(example('oil-wildcatter'));
  const [policy] = resultsOf(result, 'policy');
  const text = explainEntry(policy!);
  assert.match(text, /maximum expected utility: 22\.5/);
  assert.match(text, /\| true \| diffuse \| -40\.49 \| -10 ★ \| 0\.41 \| no \|/);
  assert.match(text, /\| true \| open \| 22\.86 ★ \| -10 \| 0\.35 \| yes \|/);
  assert.doesNotMatch(text, /\| false \| closed \|/);
  const [eu] = resultsOf(result, 'expectedUtility').filter((r) => r.source.startsWith('query'));
  assert.match(explainEntry(eu!), /\| true ★ \| 22\.5 \|\n\| false \| 20 \|/);
});

test('hovering a noisy-OR variable shows the parameters as written and the expanded table', async () => {
  const { hover } = await import('../../../server/src/features/hover.js');
  const { parseDocument } = await import('../../../server/src/language/index.js');
  const text = `variable Cold, Flu, Fever : bool
P(Cold) = 0.2
P(Flu) = 0.1
P(Fever | Cold, Flu) = noisy_or { Cold: 0.4, Flu: 0.8, leak: 0.01 }
`;
  const result = await run(text);
  const h = hover(parseDocument(text).ast, { line: 3, character: 3 }, result);
  const value = (h!.contents as { value: string }).value;
  assert.match(value, /\*\*noisy_or\*\* — P\(Fever \| only this cause present\), the leak included/);
  assert.match(value, /\| Cold \| {2}\| 0\.4 \|/);
  assert.match(value, /\| leak \| {2}\| 0\.01 \|/);
  // Both causes: 1 − 0.99 · (0.6/0.99)(0.2/0.99) = 0.8788; neither: the leak.
  assert.match(value, /\| true \| true \| 0\.8788 \| 0\.1212 \|/);
  assert.match(value, /\| false \| false \| 0\.01 \| 0\.99 \|/);
});
