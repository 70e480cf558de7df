/**
 * Corpus folders (issue #28): folders count against bayes.archive.maxEntries as files do, so a
 * tree of 20,000 empty sub-folders is refused after visiting at most the cap's entries (once
 * every check walked it whole, 25–30 s an edit); and the language server keeps a folder's
 * listing between checks (workspace/fileFacts.ts), walking it again only when the folder's time
 * changes, the client reports a change under it, or the listing is older than LISTING_MAX_AGE_MS.
 * Work is counted (listingWork), never timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFacts } from '../../../server/src/workspace/fileFacts.js';
import { listingWork, nodeEnvironment } from '../../../server/src/workspace/files.js';
import { checkDocument, parseDocument } from '../../../server/src/language/index.js';

const CAP = 1000;
const TEXT = 'corpus C from "news" label folder\n';
const RANGE = [0, 'corpus C from '.length, 'corpus C from "news"'.length] as const;

/** A workspace whose news/ holds `folders` empty sub-folders (and one document, so it is a corpus). */
function tree(folders: number): string {
  const root = mkdtempSync(join(tmpdir(), 'bayes-folders-'));
  mkdirSync(join(root, 'news', 'sport'), { recursive: true });
  writeFileSync(join(root, 'news', 'sport', '1.txt'), 'the team won');
  for (let i = 0; i < folders; i++) mkdirSync(join(root, 'news', `empty${i}`));
  return root;
}

const errors = (text: string, env: Parameters<typeof checkDocument>[1]) =>
  checkDocument(parseDocument(text).ast, env)
    .filter((d) => d.severity === 'error')
    .map((d) => [d.message, d.range.start.line, d.range.start.character, d.range.end.character]);

test('20,000 empty sub-folders over a cap of 1,000: refused on the path after at most 1,001 entries', async () => {
  const root = tree(20_000);
  try {
    const documentPath = join(root, 'm.bayes');
    const limits = { maxArchiveEntries: CAP };
    const message = '"news": it holds more than 1,000 files and folders (setting bayes.archive.maxEntries)';
    // The CLI and runs: the synchronous listing.
    let before = listingWork.entries;
    assert.deepEqual(errors(TEXT, nodeEnvironment({ documentPath, workspaceRoot: root, limits })), [
      [message, ...RANGE],
    ]);
    assert.ok(listingWork.entries - before <= CAP + 1, `${listingWork.entries - before} entries visited`);
    // The language server: the asynchronous listing, through FileFacts.
    const facts = new FileFacts();
    const env = facts.environment({ documentPath, workspaceRoot: root, limits });
    errors(TEXT, env);
    before = listingWork.entries;
    await facts.fetch(env, [...env.asked]);
    assert.ok(listingWork.entries - before <= CAP + 1, `${listingWork.entries - before} entries visited`);
    assert.deepEqual(errors(TEXT, env), [[message, ...RANGE]]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a listing is kept between checks: walked again when the folder changes or the client reports a change', async () => {
  const root = tree(50);
  try {
    const documentPath = join(root, 'm.bayes');
    const facts = new FileFacts();
    const text = 'corpus C from "news" label folder\nclassifier NB = text_naive_bayes(C)\n';
    /** One check as session.ts runs it: the answers asked last time brought up to date, then what was missed. */
    let asked: string[] = [];
    const check = async () => {
      const env = facts.environment({ documentPath, workspaceRoot: root });
      await facts.fetch(env, asked);
      errors(text, env);
      await facts.fetch(env, [...env.missed]);
      const found = errors(text, env);
      asked = [...env.asked];
      return found;
    };
    const listings = async () => {
      const before = listingWork.listings;
      assert.deepEqual(await check(), []);
      return listingWork.listings - before;
    };
    assert.equal(await listings(), 1); // the first check lists news/
    assert.equal(await listings(), 0); // the next ones do not
    assert.equal(await listings(), 0);
    writeFileSync(join(root, 'news', 'sport', '2.txt'), 'another game'); // news/'s own time is unchanged…
    assert.equal(await listings(), 0);
    facts.changed(join(root, 'news', 'sport', '2.txt')); // …until the client's watcher reports the file
    assert.equal(await listings(), 1);
    assert.equal(await listings(), 0);
    mkdirSync(join(root, 'news', 'space')); // a folder added in news/ changes its time: one stat sees it
    utimesSync(join(root, 'news'), new Date(), new Date(Date.now() + 5000));
    assert.equal(await listings(), 1);
    assert.equal(await listings(), 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
