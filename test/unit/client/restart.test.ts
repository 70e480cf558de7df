/** After "Restart Server": which models run again so their hints and results come back. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelsToRerun } from '../../../client/src/restart.js';

test('visible .bayes editors and models with an open panel run again, each once; other files do not', () => {
  const editors = [
    { uri: 'file:///w/a.bayes', languageId: 'bayes' },
    { uri: 'file:///w/data.csv', languageId: 'csv' },
    { uri: 'file:///w/b.bayes', languageId: 'bayes' },
  ];
  assert.deepEqual(modelsToRerun(editors, ['file:///w/b.bayes', 'file:///w/c.bayes']), [
    'file:///w/a.bayes',
    'file:///w/b.bayes',
    'file:///w/c.bayes',
  ]);
  assert.deepEqual(modelsToRerun([], []), []);
});
