/**
 * `bayes test DIR` lists the .bayes files under DIR through the workspace module: sorted, hidden
 * folders and node_modules skipped, links not followed, and a folder with more entries than the cap
 * refused after looking at no more than the cap (never walked whole).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bayesFilesUnder } from '../../../server/src/workspace/modelListing.js';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'bayes-models-'));
  for (const dir of ['b', 'a/deep', '.hidden', 'node_modules/pkg']) mkdirSync(join(root, dir), { recursive: true });
  for (const file of [
    'b/2.bayes',
    'a/deep/1.bayes',
    'top.bayes',
    'notes.txt',
    '.hidden/h.bayes',
    'node_modules/pkg/p.bayes',
  ])
    writeFileSync(join(root, file), '');
  symlinkSync(root, join(root, 'a', 'loop')); // a link to a folder above: not followed
  return root;
}

test('the .bayes files under a folder, sorted; hidden folders, node_modules and links left out', () => {
  const root = tree();
  try {
    const rel = bayesFilesUnder(root).map((f) => f.slice(root.length + 1));
    assert.deepEqual(rel, ['a/deep/1.bayes', 'b/2.bayes', 'top.bayes']);
    assert.deepEqual(bayesFilesUnder(join(root, 'top.bayes')), [join(root, 'top.bayes')]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('more entries than the cap: refused with the cap in the message', () => {
  const root = mkdtempSync(join(tmpdir(), 'bayes-models-'));
  try {
    for (let i = 0; i < 50; i++) writeFileSync(join(root, `m${i}.bayes`), '');
    assert.throws(() => bayesFilesUnder(root, 20), /more than 20 entries/);
    assert.equal(bayesFilesUnder(root, 50).length, 50);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
