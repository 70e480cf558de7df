/** The size budgets as settings (bayes.maxFileMb, bayes.archive.*) and as the CLI's --max-file-mb. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, fileLimitsOf, normaliseSettings } from '../../../server/src/workspace/settings.js';
import { DEFAULT_FILE_LIMITS } from '../../../server/src/language/environment.js';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';

test('settings: budgets in MB become byte limits; nonsense falls back to the defaults', () => {
  assert.deepEqual(fileLimitsOf(DEFAULT_SETTINGS), DEFAULT_FILE_LIMITS);
  assert.deepEqual(fileLimitsOf(normaliseSettings({ maxFileMb: 1.5, archive: { maxExpandedMb: 10, maxEntries: 7 } })), {
    maxFileBytes: 1.5 * 2 ** 20,
    maxArchiveBytes: 10 * 2 ** 20,
    maxArchiveEntries: 7,
  });
  assert.deepEqual(
    fileLimitsOf(normaliseSettings({ maxFileMb: 0, archive: { maxExpandedMb: 'x', maxEntries: -1 } })),
    DEFAULT_FILE_LIMITS,
  );
  // 20 Newsgroups (14.5 MB, 50 MB and 18,888 entries expanded) fits the defaults with room.
  assert.ok(DEFAULT_FILE_LIMITS.maxFileBytes >= 4 * 14.5e6);
  assert.ok(DEFAULT_FILE_LIMITS.maxArchiveBytes >= 5 * 50.3e6);
  assert.ok(DEFAULT_FILE_LIMITS.maxArchiveEntries >= 5 * 18_888);
});

test('bayes check --max-file-mb: a file over the limit is refused on its path; the default reads it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-maxfile-'));
  try {
    writeFileSync(join(dir, 'd.csv'), 'a,b\n' + '1,2\n'.repeat(300_000)); // 1.2 MB
    const model = join(dir, 'm.bayes');
    writeFileSync(model, 'variable a, b : real\ndata D from "d.csv"\n');
    const small = capture(dir);
    assert.equal(await main(['check', '--max-file-mb', '1', model], small), 1);
    assert.match(small.stdout + small.stderr, /"d\.csv" is 1\.1 MB, over the 1 MB limit/);
    const defaults = capture(dir);
    assert.equal(await main(['check', model], defaults), 0, defaults.stdout + defaults.stderr);
    const bad = capture(dir);
    assert.equal(await main(['check', '--max-file-mb', 'lots', model], bad), 2);
    assert.match(bad.stderr, /--max-file-mb must be a positive number/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
