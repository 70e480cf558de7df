import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../../server/src/cli/commands.js';

test('the lazy command index agrees with every command it loads: name and summary', async () => {
  const names = [
    'check',
    'run',
    'lsp',
    'marginals',
    'convert',
    'learn',
    'structure',
    'mixture',
    'filter',
    'predict',
    'validate',
    'test',
    'completion',
    'doctor',
  ];
  assert.deepEqual(
    commands.map((c) => c.name),
    names,
  );
  for (const entry of commands) {
    const command = await entry.load();
    assert.equal(command.name, entry.name);
    assert.equal(command.summary, entry.summary, entry.name);
    assert.match(command.usage, new RegExp(`^bayes ${entry.name}`));
  }
});
