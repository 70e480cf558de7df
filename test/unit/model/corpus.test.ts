import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newsgroupsFromEntries } from '../../../server/src/model/corpus.js';
import { createRng } from '../../../server/src/engine/random.js';

test('newsgroups: posts ordered by folder then path, whatever the archive order and path shapes', () => {
  // Same folders at several depths and under both parts, names that sort differently as strings
  // and as numbers, empty and '.' components, a trailing slash.
  const paths = [
    'n-train/comp/10',
    'n-train/comp/9',
    'n-test/comp/1',
    'x/n-train/comp/2',
    'n-train/comp.x/1',
    'n-train/co/5',
    './n-train/comp/3',
    'n-train//comp/4',
    'n-train/comp/5/',
    'n-test/co/7',
    'n-train-b-test/comp/1',
    'n-train/comp/a/n-test/comp/0',
    ...Array.from({ length: 200 }, (_, i) => `n-${i % 3 ? 'train' : 'test'}/g${i % 7}/${(i * 7919) % 1000}`),
  ];
  const rng = createRng(3);
  for (let trial = 0; trial < 5; trial++) {
    const shuffled = rng.shuffle([...paths]);
    const corpus = newsgroupsFromEntries(shuffled.map((path) => ({ path, data: Buffer.from(path) })));
    const folderOf = (p: string) => {
      const parts = p.split('/').filter((x) => x !== '' && x !== '.');
      return parts[parts.length - 2]!;
    };
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = [...paths].sort((a, b) => compare(folderOf(a), folderOf(b)) || compare(a, b));
    assert.deepEqual(corpus.paths, expected);
    assert.deepEqual(
      corpus.documents.map((d) => d.toString()),
      expected,
    );
    assert.deepEqual(
      Array.from(corpus.labels, (c) => corpus.classNames[c]),
      expected.map(folderOf),
    );
  }
});
