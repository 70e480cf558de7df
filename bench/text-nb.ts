/**
 * Text naive Bayes on 20 Newsgroups (Mitchell §6.10) against scikit-learn, same splits, same run:
 *   1. Mitchell's protocol: all 18,846 posts, seeded random 2/3 train, drop the 100 most frequent
 *      words and words seen fewer than 3 times. Mitchell reports 89% accuracy.
 *   2. The standard bydate train/test split, same vocabulary pruning.
 * Each side's time covers load (gunzip + tar) + tokenize + train + classify, for each split on
 * its own, run `--repeat` times (default 6): the first run is reported as cold, the median of the
 * others as warm (docs/TESTING: shared machines drift, so ratios within one run are what count).
 * Prints accuracies, agreement of the predictions, and the speed ratios.
 *   npm run bench:text-nb [-- --seed 1 --repeat 6]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamNewsgroups, documentsInPart, type LabelledCorpus } from '../server/src/model/corpus.js';
import { Latin1Tokenizer } from '../server/src/engine/latin1Tokenizer.js';
import { trainTextNaiveBayes, predictTextNaiveBayes } from '../server/src/engine/textNaiveBayes.js';
import { evaluate, shuffledRows } from '../server/src/engine/evaluation.js';

const here = dirname(fileURLToPath(import.meta.url));
// ../shared beside the repository, as the tests find it (BAYES_SHARED overrides).
const archive = join(process.env.BAYES_SHARED ?? join(here, '..', '..', 'shared'), 'data', '20news-bydate.tar.gz');
const argument = (name: string, fallback: number) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const seed = argument('--seed', 1), repeat = Math.max(2, argument('--repeat', 6));
const options = { dropMostFrequent: 100, minCount: 3 };
if (!existsSync(archive)) { console.log(`skipped: ${archive} not found`); process.exit(0); }

type Split = { train: Int32Array; test: Int32Array };
function splitsOf(corpus: LabelledCorpus): Record<'mitchell' | 'bydate', Split> {
  const order = shuffledRows(corpus.documents.length, seed);
  const cut = Math.round((corpus.documents.length * 2) / 3);
  return { mitchell: { train: order.slice(0, cut), test: order.slice(cut) }, bydate: { train: documentsInPart(corpus, 0), test: documentsInPart(corpus, 1) } };
}

/**
 * The whole pipeline for one split, as a user would run it: load and tokenize (overlapped: posts
 * are tokenized while the archive is still being decompressed), train, classify.
 */
async function runOurs(name: 'mitchell' | 'bydate') {
  const t0 = performance.now();
  const tokenizer = new Latin1Tokenizer();
  const corpus = await streamNewsgroups(archive, 'all', (post) => tokenizer.add(post));
  const tokens = tokenizer.finish(corpus.arrival);
  const t1 = performance.now();
  const split = splitsOf(corpus)[name];
  const model = trainTextNaiveBayes(tokens, corpus.labels, corpus.classNames, split.train, options);
  const t2 = performance.now();
  const predicted = predictTextNaiveBayes(model, tokens, split.test);
  const ms = performance.now() - t0;
  const evaluation = evaluate(corpus.labels, corpus.classNames, () => predicted, { kind: 'holdout', ...split });
  return { ms, loadMs: t1 - t0, trainMs: t2 - t1, evaluation, predicted, split, words: tokens.tokens.length, distinct: tokens.index.size };
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const names = ['mitchell', 'bydate'] as const;
type OurRun = Awaited<ReturnType<typeof runOurs>>;
const ours = {} as Record<(typeof names)[number], OurRun & { coldMs: number; warmMs: number; warmLoadMs: number; warmTrainMs: number }>;
for (const name of names) {
  const runs: OurRun[] = [];
  for (let r = 0; r < repeat; r++) runs.push(await runOurs(name));
  const warm = runs.slice(1);
  ours[name] = { ...runs[0]!, coldMs: runs[0]!.ms, warmMs: median(warm.map((r) => r.ms)), warmLoadMs: median(warm.map((r) => r.loadMs)), warmTrainMs: median(warm.map((r) => r.trainMs)) };
}
const m = ours.mitchell;
console.log(`ours, warm median of ${repeat - 1}: load + tokenize ${m.warmLoadMs.toFixed(0)} ms (${m.words} words, ${m.distinct} distinct), train ${m.warmTrainMs.toFixed(0)} ms`);

interface PeerRun { accuracy: number; cold: number; warm: number; predicted: number[]; vocabulary: number }
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
    times = []
    for _ in range(d['repeat']):
        t0 = time.perf_counter()
        texts, labels = load()
        train, test = split['train'], split['test']
        nb, x_test, vocabulary = fit_predict([texts[i] for i in train], labels[train], [texts[i] for i in test], d['drop'], d['min'])
        predicted = nb.predict(x_test)
        times.append(time.perf_counter() - t0)
    out[name] = {'cold': times[0], 'warm': float(np.median(times[1:])), 'accuracy': float((predicted == labels[test]).mean()), 'predicted': predicted.tolist(), 'vocabulary': len(vocabulary)}
print(json.dumps(out))`;
const splitsForPeer = Object.fromEntries(names.map((n) => [n, { train: Array.from(ours[n].split.train), test: Array.from(ours[n].split.test) }]));
const peer = spawnSync('/usr/bin/python3', ['-c', peerScript], {
  input: JSON.stringify({ archive, splits: splitsForPeer, drop: options.dropMostFrequent, min: options.minCount, repeat }), encoding: 'utf8', maxBuffer: 1 << 28,
});
const peerRuns: Record<string, PeerRun> | undefined = peer.status === 0 ? JSON.parse(peer.stdout) : undefined;
if (!peerRuns) console.log(`scikit-learn peer unavailable: ${peer.stderr?.trim().split('\n').pop() ?? peer.error?.message}`);

for (const name of names) {
  const run = ours[name];
  const label = name === 'mitchell' ? `Mitchell protocol (seed ${seed}, 2/3 train)` : 'bydate train/test';
  console.log(`\n${label}: trained on ${run.evaluation.trained}, tested on ${run.evaluation.tested}`);
  const time = (cold: number, warm: number) => `cold ${cold.toFixed(2)} s, warm ${warm.toFixed(2)} s`;
  console.log(`  ours          accuracy ${run.evaluation.accuracy.toFixed(4)}  ${time(run.coldMs / 1000, run.warmMs / 1000)}${name === 'mitchell' ? '   (Mitchell reports 0.89)' : ''}`);
  const p = peerRuns?.[name];
  if (!p) continue;
  const agree = p.predicted.filter((c, i) => c === run.predicted[i]).length;
  console.log(`  scikit-learn  accuracy ${p.accuracy.toFixed(4)}  ${time(p.cold, p.warm)}  (CountVectorizer + MultinomialNB, vocabulary ${p.vocabulary})`);
  console.log(`  same prediction on ${agree}/${p.predicted.length} documents; speed-up cold ${(p.cold / (run.coldMs / 1000)).toFixed(1)}×, warm ${(p.warm / (run.warmMs / 1000)).toFixed(1)}×`);
}
