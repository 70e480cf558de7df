/**
 * The editor's name index (definition, references, rename) and the checker's symbol table
 * resolve names independently; on every example they must agree on every name the checker
 * resolved (the index also resolves values: states, data cells, row keys).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { check, parseDocument } from '../../../../server/src/language/index.js';
import { nodeEnvironment } from '../../../../server/src/workspace/files.js';
import { nameIndex } from '../../../../server/src/language/index.js';
import { repoRoot } from '../../../support/shared.js';

const examples = join(repoRoot, 'examples');

test('the name index agrees with the checker on every resolved name of every example', () => {
  let compared = 0;
  for (const file of readdirSync(examples).filter((f) => f.endsWith('.bayes'))) {
    const path = join(examples, file);
    const { ast } = parseDocument(readFileSync(path, 'utf8'));
    const { symbols } = check(ast, nodeEnvironment({ documentPath: path, workspaceRoot: repoRoot }));
    const index = nameIndex(ast);
    const byName = new Map(index.occurrences.map((o) => [o.name, o]));
    for (const [use, declaration] of symbols.references.toMap()) {
      const found = byName.get(use);
      const where = `${file}:${use.range.start.line + 1}:${use.range.start.character + 1} '${use.text}'`;
      assert.ok(found, `${where}: the index does not resolve it`);
      // The same entity: the checker may name a data column where the index names the variable
      // that column holds (`target: Play` → the header's `Play`, itself a use of variable Play).
      assert.equal(
        byName.get(declaration)?.symbol,
        found.symbol,
        `${where}: the index resolves it to ${found.symbol.id}`,
      );
      compared++;
    }
  }
  assert.ok(compared > 100, `compared only ${compared} names`);
});
