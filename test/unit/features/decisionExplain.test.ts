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
