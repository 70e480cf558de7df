/**
 * Corpora of files in folders (`corpus C from "dir/**\/*.txt" label folder`, or a plain folder):
 * the same corpus as the same documents in a .tar.gz, the same predictions as scikit-learn's
 * MultinomialNB on examples/data/tiny-news, and the confinement rules on hostile trees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runText } from '../../../server/src/run/pipeline.js';
import { FileFacts } from '../../../server/src/workspace/fileFacts.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { checkDocument, parseDocument } from '../../../server/src/language/index.js';
import { corpusFromFiles, loadNewsgroups } from '../../../server/src/model/corpus.js';
import { globMatcher } from '../../../server/src/language/folderCorpus.js';
import type { ClassifyResult, RunResult } from '../../../server/src/protocol/runResult.js';
import { tarHeader } from '../../support/hostileFiles.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { repoRoot } from '../../support/shared.js';
import { run } from './helpers.js';

const tiny = join(repoRoot, 'examples', 'data', 'tiny-news');

/** Every file under a folder, relative, sorted. */
function walk(folder: string, prefix = ''): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      return e.isDirectory() ? walk(folder, rel) : [rel];
    })
    .sort();
}

function tarGz(entries: Array<[string, Buffer]>): Buffer {
  const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);
  const blocks = entries.flatMap(([name, data]) => [tarHeader(name, data.length), data, pad(data.length)]);
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

function errorsOf(result: RunResult): Array<[string, number, number, number]> {
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => [d.message, d.range.start.line, d.range.start.character, d.range.end.character]);
}

test('glob matching: ** spans any folders (none too), * and ? stay within one name', () => {
  const m = globMatcher('**/*.txt');
  assert.deepEqual(['a.txt', 'x/a.txt', 'x/y/a.txt', 'a.md', 'x/a.txt/b'].map(m), [true, true, true, false, false]);
  const n = globMatcher('train/*/?.txt');
  assert.deepEqual(['train/sport/1.txt', 'train/sport/12.txt', 'train/a/b/1.txt', 'test/sport/1.txt'].map(n), [
    true,
    false,
    false,
    false,
  ]);
});

test('a glob corpus holds the documents of the same files in a .tar.gz, labelled by the folder holding each', async () => {
  const rels = walk(tiny);
  assert.equal(rels.length, 24);
  // The archive in the 20 Newsgroups layout: <part>-train|test/<class>/<document>.
  const archive = tarGz(rels.map((r) => [`tiny-${r}`, readFileSync(join(tiny, r))]));
  const fromArchive = loadNewsgroups(archive);
  const fromFolder = corpusFromFiles(
    rels.map((r) => ({ path: `data/tiny-news/${r}`, data: readFileSync(join(tiny, r)) })),
  );
  assert.deepEqual(fromFolder.classNames, ['cooking', 'space', 'sport']);
  assert.deepEqual(fromFolder.classNames, fromArchive.classNames);
  assert.deepEqual([...fromFolder.labels], [...fromArchive.labels]);
  assert.deepEqual([...fromFolder.part], [...fromArchive.part]);
  assert.deepEqual(
    fromFolder.documents.map((d) => Buffer.from(d).toString('latin1')),
    fromArchive.documents.map((d) => Buffer.from(d).toString('latin1')),
  );
  // news/train/sport/1.txt is sport (the folder directly holding it), in the training part.
  const i = fromFolder.paths.indexOf('data/tiny-news/train/sport/1.txt');
  assert.equal(fromFolder.classNames[fromFolder.labels[i]!], 'sport');
  assert.equal(fromFolder.part[i], 0);
  assert.equal(fromFolder.part[fromFolder.paths.indexOf('data/tiny-news/test/space/2.txt')], 1);

  // Through the run: the glob, the folder and the archive (written beside the model) classify alike.
  const dir = mkdtempSync(join(tmpdir(), 'bayes-corpus-'));
  try {
    execFileSync('cp', ['-r', tiny, join(dir, 'news')]);
    writeFileSync(join(dir, 'news.tar.gz'), archive);
    const model = (source: string) => `corpus C from "${source}" label folder
classifier NB = text_naive_bayes(C, drop_most_frequent: 0, min_count: 1)
query classify NB { text: "Bake the cake and fry the onions; the team won the match." }
`;
    const posteriors: number[][] = [];
    for (const source of ['news/**/*.txt', 'news', 'news.tar.gz']) {
      const documentPath = join(dir, 'm.bayes');
      const result = await runText(model(source), documentPath, nodeEnvironment({ documentPath }));
      assert.deepEqual(errorsOf(result), [], source);
      const c = result.results.find((r): r is ClassifyResult => r.kind === 'classify')!;
      posteriors.push(c.classes.map((k) => k.posterior!));
    }
    assert.deepEqual(posteriors[1], posteriors[0]);
    assert.deepEqual(posteriors[2], posteriors[0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('text naive Bayes on the tiny-news train folder predicts the test folder as scikit-learn does', async (t) => {
  const missing = pythonMissing(['sklearn']);
  if (missing) {
    t.skip(missing);
    return;
  }
  const part = (p: string) =>
    walk(join(tiny, p)).map((r) => ({ label: r.split('/')[0]!, text: readFileSync(join(tiny, p, r), 'latin1') }));
  const train = part('train'),
    testDocs = part('test');
  const extra = 'The rocket carried two astronauts to the moon.';
  const texts = [...testDocs.map((d) => d.text), extra];
  const helper = readFileSync(join(repoRoot, 'test', 'support', 'sklearnText.py'), 'utf8');
  const peer = runPython<{ predicted: string[]; proba: number[][]; classes: string[] }>(
    `${helper}
import json, sys
d = json.load(sys.stdin)
nb, x_test, vocabulary = fit_predict(d['train'], d['labels'], d['test'], 0, 1)
print(json.dumps({'predicted': nb.predict(x_test).tolist(), 'proba': nb.predict_proba(x_test).tolist(), 'classes': nb.classes_.tolist()}))`,
    { train: train.map((d) => d.text), labels: train.map((d) => d.label), test: texts },
  );
  // The test folder is classified correctly by the peer: 6/6.
  assert.deepEqual(
    peer.predicted.slice(0, 6),
    testDocs.map((d) => d.label),
  );
  const model = `corpus Train from "data/tiny-news/train/**/*.txt" label folder
classifier NB = text_naive_bayes(Train, drop_most_frequent: 0, min_count: 1)
${texts.map((x) => `query classify NB { text: ${JSON.stringify(x)} }`).join('\n')}
`;
  const result = await run(model, 'tiny.bayes');
  assert.deepEqual(errorsOf(result), []);
  const ours = result.results.filter((r): r is ClassifyResult => r.kind === 'classify');
  assert.equal(ours.length, texts.length);
  ours.forEach((c, i) => {
    assert.equal(c.predicted, peer.predicted[i]);
    for (const k of c.classes) {
      const p = peer.proba[i]![peer.classes.indexOf(k.value)]!;
      assert.ok(Math.abs(k.posterior! - p) < 1e-9, `${texts[i]}: P(${k.value}) ${k.posterior} vs ${p}`);
    }
  });
  // The example's figure: P(space | "The rocket carried two astronauts to the moon.") = 0.8989.
  assert.ok(Math.abs(peer.proba[6]![peer.classes.indexOf('space')]! - 0.89889) < 1e-5);
});

/** A workspace with a model folder and an outside folder; runs `corpus C from "<source>"`. */
async function hostile(source: string, build: (ws: string, outside: string) => void, maxEntries?: number) {
  const root = mkdtempSync(join(tmpdir(), 'bayes-corpus-hostile-'));
  const ws = join(root, 'ws'),
    outside = join(root, 'outside');
  mkdirSync(join(ws, 'news', 'sport'), { recursive: true });
  mkdirSync(join(outside, 'secret'), { recursive: true });
  writeFileSync(join(ws, 'news', 'sport', '1.txt'), 'the team won');
  writeFileSync(join(outside, 'secret', 'x.txt'), 'SECRET words');
  build(ws, outside);
  const text = `corpus C from "${source}" label folder
classifier NB = text_naive_bayes(C, drop_most_frequent: 0, min_count: 1)
query classify NB { text: "team" }
`;
  const documentPath = join(ws, 'm.bayes');
  const limits = maxEntries ? { maxArchiveEntries: maxEntries } : undefined;
  const env = nodeEnvironment({ documentPath, workspaceRoot: ws, limits });
  try {
    const checked = checkDocument(parseDocument(text).ast, env)
      .filter((d) => d.severity === 'error')
      .map((d) => [d.message, d.range.start.line, d.range.start.character, d.range.end.character]);
    const ran = errorsOf(await runText(text, documentPath, env));
    return { checked, ran };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const at = (source: string) => [0, 'corpus C from '.length, 'corpus C from '.length + source.length + 2] as const;

test('a glob that climbs out with .. is refused on the path, checked and run', async () => {
  const source = 'news/**/../../../outside/secret/*.txt';
  const { checked, ran } = await hostile(source, () => {});
  const message = `"${source}": a glob may not climb out of its folder with '..'`;
  assert.deepEqual(checked, [[message, ...at(source)]]);
  assert.deepEqual(ran, [[message, ...at(source)]]);
  // A folder written outside the workspace is refused too.
  const up = '../outside/secret/*.txt';
  const outside = await hostile(up, () => {});
  assert.match(outside.checked[0]![0] as string, /outside the workspace and the data roots/);
  assert.match(outside.ran[0]![0] as string, /outside the workspace and the data roots/);
});

test('a symlinked folder leading outside is refused with its path as written, never read', async () => {
  const source = 'news/**/*.txt';
  const { checked, ran } = await hostile(source, (ws, outside) =>
    symlinkSync(join(outside, 'secret'), join(ws, 'news', 'space')),
  );
  const message =
    '"news/space" leads outside the workspace and the data roots (it is, or passes through, a symbolic link);' +
    ' add the folder it leads to as a data root (bayes.dataRoots, or --data-root on the command line)';
  assert.deepEqual(checked, [[message, ...at(source)]]);
  assert.deepEqual(ran, [[message, ...at(source)]]);
  assert.ok(!JSON.stringify(ran).includes('SECRET'));
  // A link that stays inside the workspace is followed.
  const inside = await hostile('news', (ws) => {
    mkdirSync(join(ws, 'more', 'space'), { recursive: true });
    writeFileSync(join(ws, 'more', 'space', '1.txt'), 'the rocket');
    symlinkSync(join(ws, 'more', 'space'), join(ws, 'news', 'space'));
  });
  assert.deepEqual(inside, { checked: [], ran: [] });
});

test('a FIFO among the files is refused by its path, without waiting for a writer', async () => {
  const source = 'news';
  const { checked, ran } = await hostile(source, (ws) => execFileSync('mkfifo', [join(ws, 'news', 'sport', '2.txt')]));
  const message = '"news/sport/2.txt" is a FIFO (named pipe), not a regular file; only regular files are read';
  assert.deepEqual(checked, [[message, ...at(source)]]);
  assert.deepEqual(ran, [[message, ...at(source)]]);
});

test('more files than bayes.archive.maxEntries are refused; an empty match and an empty folder are reported on the path', async () => {
  const source = 'news/**/*.txt';
  const many = await hostile(
    source,
    (ws) => {
      for (let i = 2; i <= 6; i++) writeFileSync(join(ws, 'news', 'sport', `${i}.txt`), 'x');
    },
    5,
  );
  const message = `"${source}": it holds more than 5 files and folders (setting bayes.archive.maxEntries)`;
  assert.deepEqual(many.checked, [[message, ...at(source)]]);
  assert.deepEqual(many.ran, [[message, ...at(source)]]);
  const none = await hostile('news/**/*.md', () => {});
  assert.deepEqual(none.checked, [['"news/**/*.md" matches no files', ...at('news/**/*.md')]]);
  assert.deepEqual(none.ran, [['"news/**/*.md" matches no files', ...at('news/**/*.md')]]);
  const empty = await hostile('empty', (ws) => mkdirSync(join(ws, 'empty', 'sub'), { recursive: true }));
  assert.deepEqual(empty.checked, [['"empty" holds no documents (no regular files under it)', ...at('empty')]]);
  assert.deepEqual(empty.ran, [['"empty" holds no documents (no regular files under it)', ...at('empty')]]);
});

test('the language server checks a folder corpus from files listed asynchronously (FileFacts)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'bayes-corpus-facts-'));
  try {
    mkdirSync(join(root, 'news', 'sport'), { recursive: true });
    writeFileSync(join(root, 'news', 'sport', '1.txt'), 'the team won');
    const facts = new FileFacts();
    const documentPath = join(root, 'm.bayes');
    const check = async (source: string) => {
      const text = `corpus C from "${source}" label folder\n`;
      const env = facts.environment({ documentPath, workspaceRoot: root });
      const diagnostics = () =>
        checkDocument(parseDocument(text).ast, env)
          .filter((d) => d.severity === 'error')
          .map((d) => [d.message, d.range.start.line, d.range.start.character, d.range.end.character]);
      diagnostics();
      await facts.fetch(env, [...env.asked]); // as session.withFiles does: every question asked is read again
      return diagnostics();
    };
    assert.deepEqual(await check('news/**/*.md'), [['"news/**/*.md" matches no files', ...at('news/**/*.md')]]);
    assert.deepEqual(await check('news/**/1.txt'), []);
    execFileSync('mkfifo', [join(root, 'news', 'sport', 'pipe.txt')]); // any FIFO in the folder is refused
    // The listing of news/ is kept between checks; the client's file watcher reports the new file.
    facts.changed(join(root, 'news', 'sport', 'pipe.txt'));
    const fifo = '"news/sport/pipe.txt" is a FIFO (named pipe), not a regular file; only regular files are read';
    assert.deepEqual(await check('news'), [[fifo, ...at('news')]]);
    assert.deepEqual(await check('missing/*.txt'), [
      [`cannot find "missing/*.txt" (looked for ${join(root, 'missing')})`, ...at('missing/*.txt')],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('accuracy / evaluate C on Other: a text classifier tested on another corpus, new classes as errors', async () => {
  const result = await run(`corpus Train from "data/tiny-news/train" label folder
corpus Test from "data/tiny-news/test" label folder
corpus Sport from "data/tiny-news/train/sport" label folder
classifier NB = text_naive_bayes(Train, drop_most_frequent: 0, min_count: 1)
classifier OnlySport = text_naive_bayes(Sport, drop_most_frequent: 0, min_count: 1)
expect accuracy NB on Test ≈ 1 ± 1e-12
expect evaluate NB on Test ≈ 1 ± 1e-12
expect accuracy OnlySport on Test ≈ 2/6 ± 1e-12
data D {
  A
  x
}
expect accuracy NB on D ≈ 1
`);
  // scikit-learn's MultinomialNB(alpha=1) on CountVectorizer counts of train/ gets all 6 test documents
  // right; a classifier that knows only sport gets its 2 of the 6.
  assert.deepEqual(
    result.results.flatMap((r) => (r.kind === 'expect' ? [[r.range.start.line, r.passed, r.actual]] : [])),
    [
      [5, true, 1],
      [6, true, 1],
      [7, true, 2 / 6],
    ],
  );
  const notes = result.diagnostics.filter((d) => d.code === 'unseen-value').map((d) => [d.range.start.line, d.message]);
  assert.deepEqual(notes, [
    [
      7,
      "class cooking (2 documents of 'Test') never occurs in OnlySport's training corpus: it cannot be predicted, " +
        'so those documents count as errors',
    ],
    [
      7,
      "class space (2 documents of 'Test') never occurs in OnlySport's training corpus: it cannot be predicted, " +
        'so those documents count as errors',
    ],
  ]);
  const refused = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    refused.map((d) => [d.range.start.line, d.message]),
    [[12, "a text classifier is tested on a corpus; 'D' is not one"]],
  );
});
