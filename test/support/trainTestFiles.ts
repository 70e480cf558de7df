/**
 * A UCI table written as separate train and test CSVs in a temporary folder, as a user would have
 * them: a seeded 2/3 split; train.csv with the class column moved into the middle, test.csv with
 * its columns in another (seeded) order and rows whose values first appear in another order.
 * Test rows may be added with a value the training rows never show, and the peer's answers
 * (scikit-learn CategoricalNB, alpha = 1) come per test row, by class name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../server/src/engine/random.js';
import { runPython } from './python.js';
import { sharedFile } from './shared.js';
import type { UciTable } from './uciTables.js';

export interface TrainTestFiles {
  dir: string;
  /** Column names of train.csv and of test.csv, in file order. */
  trainHeader: string[];
  testHeader: string[];
  /** Rows as name → value. */
  train: Record<string, string>[];
  test: Record<string, string>[];
  /** Test rows (indices into `test`) given an unseen value, and the column it is in. */
  unseenAt: Map<number, string>;
  target: string;
  attributes: string[];
}

export const UNSEEN = 'never_seen';

/**
 * Writes train.csv and test.csv, or undefined when ../shared is absent. `toTest` rows go to the
 * test file whatever the split (e.g. a class the training rows must not show); `unseen` test rows
 * get UNSEEN in one attribute each (cycling through the attributes).
 */
export interface SplitOptions {
  toTest?: (row: Record<string, string>) => boolean;
  unseen?: number;
}

export function writeTrainTest(table: UciTable, seed: number, options: SplitOptions = {}): TrainTestFiles | undefined {
  const file = sharedFile('tables/uci', table.file);
  if (!file) return undefined;
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const cells = l
        .trim()
        .split(',')
        .map((v) => (v === '?' ? 'unknown' : v));
      return Object.fromEntries(table.header.map((h, i) => [h, cells[i]!]));
    });
  const rng = createRng(seed);
  const order = rng.shuffle(Array.from(rows.keys()));
  const forced = order.filter((r) => options.toTest?.(rows[r]!));
  const rest = order.filter((r) => !options.toTest?.(rows[r]!));
  const nTrain = Math.round((rows.length * 2) / 3);
  const train = rest.slice(0, nTrain).map((r) => rows[r]!);
  const test = [...forced, ...rest.slice(nTrain)].map((r) => ({ ...rows[r]! }));
  const attributes = table.header.filter((h) => h !== table.target);
  const unseenAt = new Map<number, string>();
  for (let i = 0; i < (options.unseen ?? 0); i++) {
    const row = { ...test[i]! },
      column = attributes[(i * 5) % attributes.length]!;
    row[column] = UNSEEN;
    unseenAt.set(test.length, column);
    test.push(row);
  }
  const middle = Math.floor(attributes.length / 2);
  const trainHeader = [...attributes.slice(0, middle), table.target, ...attributes.slice(middle)];
  let testHeader = rng.shuffle([...table.header]);
  while (testHeader.join() === trainHeader.join()) testHeader = rng.shuffle(testHeader);
  // The order values first appear in differs between the files (else the test would prove little).
  const firstSeen = (data: Record<string, string>[], c: string) => [...new Set(data.map((r) => r[c]!))].join();
  const reordered = table.header.some((c) => firstSeen(train, c) !== firstSeen(test, c));
  assert.ok(reordered, 'the split kept every order of first appearance');
  const dir = mkdtempSync(join(tmpdir(), `bayes-${table.name}-`));
  const csv = (header: string[], data: Record<string, string>[]) =>
    [header, ...data.map((r) => header.map((h) => r[h]!))].map((l) => l.join(',')).join('\n') + '\n';
  writeFileSync(join(dir, 'train.csv'), csv(trainHeader, train));
  writeFileSync(join(dir, 'test.csv'), csv(testHeader, test));
  return { dir, trainHeader, testHeader, train, test, unseenAt, target: table.target, attributes };
}

export interface PeerAnswer {
  /** P(v | row) by class name, over the classes of the training rows. */
  posterior: Record<string, number>;
  predicted: string;
}

/**
 * scikit-learn's CategoricalNB (alpha = 1, the fitted prior) per test row. Values are coded by
 * name, the training rows' values first; a row with an unseen value is answered by the model
 * fitted without that column (our documented rule: the value is left out of the product).
 */
export function peerAnswers(files: TrainTestFiles): PeerAnswer[] {
  const { attributes, target } = files;
  const codes = attributes.map((a) => new Map([...new Set(files.train.map((r) => r[a]!))].map((v, i) => [v, i])));
  const encode = (r: Record<string, string>) => attributes.map((a, j) => codes[j]!.get(r[a]!) ?? -1);
  return runPython<PeerAnswer[]>(
    `
import json, sys
import numpy as np
from sklearn.naive_bayes import CategoricalNB
d = json.load(sys.stdin)
X = np.array(d['X']); y = np.array(d['y']); k = d['k']
fits = {}
def fit(drop):
    if drop not in fits:
        keep = [j for j in range(X.shape[1]) if j != drop]
        fits[drop] = (keep, CategoricalNB(alpha=1.0, min_categories=[k[j] for j in keep]).fit(X[:, keep], y))
    return fits[drop]
out = []
for row in d['test']:
    drop = next((j for j, x in enumerate(row) if x < 0), -1)
    keep, nb = fit(drop)
    p = nb.predict_proba(np.array([[row[j] for j in keep]]))[0]
    out.append({'posterior': {str(c): float(q) for c, q in zip(nb.classes_, p)},
                'predicted': str(nb.classes_[int(np.argmax(p))])})
print(json.dumps(out))
`,
    {
      X: files.train.map(encode),
      y: files.train.map((r) => r[target]!),
      k: codes.map((m) => m.size),
      test: files.test.map(encode),
    },
  );
}
