/** The example list's description lines (client/src/exampleList.ts) on the shipped examples. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstDocLine } from '../../../client/src/exampleList.js';
import { repoRoot } from '../../support/shared.js';

test('every shipped example has a description line of at most 120 characters, from its doc comment', () => {
  const dir = join(repoRoot, 'examples');
  const models = readdirSync(dir).filter((f) => f.endsWith('.bayes'));
  assert.ok(models.length >= 20);
  for (const f of models) {
    const line = firstDocLine(readFileSync(join(dir, f), 'utf8'));
    assert.ok(line.length >= 20 && line.length <= 120, `${f}: "${line}"`);
    assert.doesNotMatch(line, /\/\/\//);
  }
});

test('the first sentence, not an abbreviation, ends the line', () => {
  assert.equal(
    firstDocLine(
      "/// Mitchell §6.11: learning the forest-fire network's tables (fig. 6.3) from data. The\n/// rest.\nnetwork N {}\n",
    ),
    "Mitchell §6.11: learning the forest-fire network's tables (fig. 6.3) from data.",
  );
  assert.equal(
    firstDocLine('/// ALARM (Beinlich et al. 1989): 37 variables monitoring a patient. More.\n'),
    'ALARM (Beinlich et al. 1989): 37 variables monitoring a patient.',
  );
  assert.equal(firstDocLine(`/// ${'word '.repeat(40)}\n`).length, 120);
  assert.equal(firstDocLine('variable A : bool\n'), '');
});
