import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableOffset } from '../../../client/src/tableOffset.js';
import { repoRoot } from '../../support/shared.js';

test("a graph node reveals its variable's P(…) table, not a longer name, a comment or a query", () => {
  const text = readFileSync(join(repoRoot, 'examples', 'forest.bayes'), 'utf8');
  const at = (v: string) => {
    const o = tableOffset(text, v);
    return o && text.slice(o.start, o.end);
  };
  assert.equal(at('Storm'), 'P(Storm');
  const campfire = tableOffset(text, 'Campfire')!;
  assert.equal(text.slice(campfire.start, campfire.start + 'P(Campfire | Storm'.length), 'P(Campfire | Storm');
  // The `/// Mitchell fig. 6.3: P(Campfire = true | …)` doc comment comes first in the file and is skipped.
  assert.ok(text.indexOf('/// Mitchell fig. 6.3: P(Campfire') < campfire.start);
  assert.equal(tableOffset('P(StormCloud) = 0.2\n', 'Storm'), undefined);
  assert.equal(tableOffset('network N {}\n', 'Storm'), undefined);
  assert.equal(tableOffset('query P(Storm)\nexpect P(Storm = true) ≈ 0.3\n', 'Storm'), undefined);
  assert.deepEqual(tableOffset('  P( A.b | C) { }', 'A.b'), { start: 2, end: 8 });
});
