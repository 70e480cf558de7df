/**
 * Text naive Bayes on 20 Newsgroups (Mitchell §6.10) against scikit-learn, same splits, same run:
 *   1. Mitchell's protocol: all 18,846 posts, seeded random 2/3 train, drop the 100 most frequent
 *      words and words seen fewer than 3 times. Mitchell reports 89% accuracy.
 *   2. The standard bydate train/test split, same vocabulary pruning.
 * Each side's time covers load (gunzip + tar) + tokenize + train + classify. Prints the ratio.
 *   npm run bench:text-nb [-- --seed 1]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadNewsgroups, documentsInPart } from '../server/src/model/corpus.js';
import { tokenizeLatin1Documents } from '../server/src/engine/latin1Tokenizer.js';
import { trainTextNaiveBayes, predictTextNaiveBayes } from '../server/src/engine/textNaiveBayes.js';
import { evaluate, shuffledRows, type Evaluation } from '../server/src/engine/evaluation.js';

const here = dirname(fileURLToPath(import.meta.url));
// ../shared beside the repository, as the tests find it (BAYES_SHARED overrides).
const archive = join(process.env.BAYES_SHARED ?? join(here, '..', '..', 'shared'), 'data', '20news-bydate.tar.gz');
const seedArg = process.argv.indexOf('--seed');
const seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 1;
const options = { dropMostFrequent: 100, minCount: 3 };
if (!existsSync(archive)) { console.log(`skipped: ${archive} not found`); process.exit(0); }

const started = performance.now();
const corpus = loadNewsgroups(archive, 'all');
const loaded = performance.now();
const tokens = tokenizeLatin1Documents(corpus.documents);
const tokenized = performance.now();
const fitPredict = (train: Int32Array, test: Int32Array) => predictTextNaiveBayes(trainTextNaiveBayes(tokens, corpus.labels, corpus.classNames, train, options), tokens, test);
const order = shuffledRows(corpus.documents.length, seed);
const cut = Math.round((corpus.documents.length * 2) / 3);
const mitchell = { train: order.slice(0, cut), test: order.slice(cut) };
const bydate = { train: documentsInPart(corpus, 0), test: documentsInPart(corpus, 1) };
const ours: Record<string, { evaluation: Evaluation; predicted: Int32Array; ms: number }> = {};
for (const [name, split] of Object.entries({ mitchell, bydate })) {
  const t0 = performance.now();
  const predicted = fitPredict(split.train, split.test);
  const evaluation = evaluate(corpus.labels, corpus.classNames, () => predicted, { kind: 'holdout', ...split });
  ours[name] = { evaluation, predicted, ms: performance.now() - t0 };
}
const shared = tokenized - started;
console.log(`ours: load ${(loaded - started).toFixed(0)} ms, tokenize ${(tokenized - loaded).toFixed(0)} ms (${tokens.tokens.length} words, ${tokens.index.size} distinct)`);

interface PeerRun { accuracy: number; seconds: number; predicted: number[]; vocabulary: number }
const peerScript = `${readFileSync(join(here, '..', 'test', 'support', 'sklearnText.py'), 'utf8')}
import json, sys, tarfile, time
d = json.load(sys.stdin)
def load():
    posts = []
    with tarfile.open(d['archive'], 'r:gz') as tar:
        for m in tar:
            parts = [p for p in m.name.split('/') if p not in ('', '.')]
            if m.isfile() and len(parts) >= 3 and parts[-3].endswith(('-train', '-test')):
                posts.append((parts[-2], m.name, tar.extractfile(m).read().decode('latin1')))
    posts.sort(key=lambda p: (p[0], p[1]))
    names = sorted({p[0] for p in posts})
    return [p[2] for p in posts], np.array([names.index(p[0]) for p in posts])
out = {}
for name, split in d['splits'].items():
    t0 = time.perf_counter()
    texts, labels = load()
    train, test = split['train'], split['test']
    nb, x_test, vocabulary = fit_predict([texts[i] for i in train], labels[train], [texts[i] for i in test], d['drop'], d['min'])
    predicted = nb.predict(x_test)
    out[name] = {'seconds': time.perf_counter() - t0, 'accuracy': float((predicted == labels[test]).mean()), 'predicted': predicted.tolist(), 'vocabulary': len(vocabulary)}
print(json.dumps(out))`;
const splitsForPeer = Object.fromEntries(Object.entries({ mitchell, bydate }).map(([k, s]) => [k, { train: Array.from(s.train), test: Array.from(s.test) }]));
const peer = spawnSync('/usr/bin/python3', ['-c', peerScript], { input: JSON.stringify({ archive, splits: splitsForPeer, drop: options.dropMostFrequent, min: options.minCount }), encoding: 'utf8', maxBuffer: 1 << 28 });
const peerRuns: Record<string, PeerRun> | undefined = peer.status === 0 ? JSON.parse(peer.stdout) : undefined;
if (!peerRuns) console.log(`scikit-learn peer unavailable: ${peer.stderr?.trim().split('\n').pop() ?? peer.error?.message}`);

for (const [name, run] of Object.entries(ours)) {
  const total = (shared + run.ms) / 1000;
  const label = name === 'mitchell' ? `Mitchell protocol (seed ${seed}, 2/3 train)` : 'bydate train/test';
  console.log(`\n${label}: trained on ${run.evaluation.trained}, tested on ${run.evaluation.tested}`);
  console.log(`  ours          accuracy ${run.evaluation.accuracy.toFixed(4)}  time ${total.toFixed(2)} s${name === 'mitchell' ? '   (Mitchell reports 0.89)' : ''}`);
  const p = peerRuns?.[name];
  if (!p) continue;
  let agree = 0;
  p.predicted.forEach((c, i) => { if (c === run.predicted[i]) agree++; });
  console.log(`  scikit-learn  accuracy ${p.accuracy.toFixed(4)}  time ${p.seconds.toFixed(2)} s  (vocabulary ${p.vocabulary})`);
  console.log(`  same prediction on ${agree}/${p.predicted.length} documents; speed-up ${(p.seconds / total).toFixed(1)}×`);
}
