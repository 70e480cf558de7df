/**
 * Text naive Bayes on 20 Newsgroups (Mitchell §6.10) against scikit-learn, same splits, same run:
 *   1. Mitchell's protocol: all 18,846 posts, seeded random 2/3 train, drop the 100 most frequent
 *      words and words seen fewer than 3 times. Mitchell reports 89% accuracy.
 *   2. The standard bydate train/test split, same vocabulary pruning.
 * Each side's time covers load (gunzip + tar) + tokenize + train + classify, for each split on
 * its own, run `--repeat` times (default 6), ours and scikit-learn's runs alternating: the first
 * run is reported as cold, the median of the others as warm (docs/TESTING: shared machines drift,
 * so ratios within one run are what count, and alternating exposes both sides to the same drift).
 * wink-naive-bayes-text-classifier (bench/peers/winkText.ts) is the third side, run after ours and
 * scikit-learn's: `--wink-repeat` rounds (default 3), each within `--wink-budget` seconds (default 120).
 * Prints accuracies, agreement of the predictions, the speed ratios, and goals (FAILED and exit
 * code 1 when not met): faster than scikit-learn (warm medians) with identical predictions, and
 * faster than wink, on each split.
 *   npm run bench:text-nb [-- --seed 1 --repeat 6 --wink-repeat 3 --wink-budget 120]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamNewsgroups, documentsInPart, type LabelledCorpus } from '../server/src/model/corpus.js';
import { Latin1Tokenizer } from '../server/src/engine/classifiers/latin1Tokenizer.js';
import { trainTextNaiveBayes, predictTextNaiveBayes } from '../server/src/engine/classifiers/textNaiveBayes.js';
import { evaluate, shuffledRows } from '../server/src/engine/classifiers/evaluation.js';
import { startPeer, median, coldWarm, speedUp, speedUpText, warmSpread, type ColdWarm } from './support/peerProcess.js';
import { check, loadAverage, summary as goalSummary } from './support/report.js';

const here = dirname(fileURLToPath(import.meta.url));
// ../shared beside the repository, as the tests find it (BAYES_SHARED overrides).
const archive = join(process.env.BAYES_SHARED ?? join(here, '..', '..', 'shared'), 'data', '20news-bydate.tar.gz');
const argument = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seed = argument('--seed', 1),
  repeat = Math.max(2, argument('--repeat', 6));
// wink runs the first rounds only, each within a budget (seconds).
const winkRepeat = Math.min(repeat, Math.max(2, argument('--wink-repeat', 3))),
  winkBudget = argument('--wink-budget', 120);
const options = { dropMostFrequent: 100, minCount: 3 };
if (!existsSync(archive)) {
  console.log(`skipped: ${archive} not found`);
  process.exit(0);
}

console.log(
  `bench/text-nb.ts ${new Date().toISOString()}, load average ${loadAverage()}; ${repeat} rounds, ours and scikit-learn alternating; cold = round 1, warm = min / median / max of the others`,
);

type Split = { train: Int32Array; test: Int32Array };
function splitsOf(corpus: LabelledCorpus): Record<'mitchell' | 'bydate', Split> {
  const order = shuffledRows(corpus.documents.length, seed);
  const cut = Math.round((corpus.documents.length * 2) / 3);
  return {
    mitchell: { train: order.slice(0, cut), test: order.slice(cut) },
    bydate: { train: documentsInPart(corpus, 0), test: documentsInPart(corpus, 1) },
  };
}

/**
 * The whole pipeline for one split, as a user would run it: load and tokenize (overlapped: posts
 * are tokenized while the archive is still being decompressed), train, classify.
 */
async function runOurs(name: 'mitchell' | 'bydate', keepVocabulary: boolean) {
  const t0 = performance.now();
  const tokenizer = new Latin1Tokenizer();
  const corpus = await streamNewsgroups(readFileSync(archive), 'all', (post) => tokenizer.add(post));
  const tokens = tokenizer.finish(corpus.arrival);
  const t1 = performance.now();
  const split = splitsOf(corpus)[name];
  const model = trainTextNaiveBayes(tokens, corpus.labels, corpus.classNames, split.train, options);
  const t2 = performance.now();
  const predicted = predictTextNaiveBayes(model, tokens, split.test);
  const ms = performance.now() - t0;
  const evaluation = evaluate(corpus.labels, corpus.classNames, () => predicted, { kind: 'holdout', ...split });
  // The words of the vocabulary our model chose, for wink (outside the timed pipeline). Kept from
  // one run only: 46,000 strings per run kept alive would slow the collector in the runs timed next.
  const vocabulary = keepVocabulary ? tokens.index.words.filter((_, w) => model.vocabularyOf[w]! >= 0) : [];
  return {
    ms,
    loadMs: t1 - t0,
    trainMs: t2 - t1,
    evaluation,
    predicted,
    split,
    vocabulary,
    words: tokens.tokens.length,
    distinct: tokens.index.size,
  };
}

const names = ['mitchell', 'bydate'] as const;

/**
 * scikit-learn in one long-lived process that runs the split of each request line and answers with
 * one JSON line, so its runs can alternate with ours: load on a shared machine drifts, and
 * alternating puts both sides under the same drift.
 */
const peerScript = `${readFileSync(join(here, '..', 'test', 'support', 'sklearnText.py'), 'utf8')}
import json, sys, tarfile, time
d = json.loads(sys.stdin.readline())
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
print('ready', flush=True)
for line in sys.stdin:
    split = json.loads(line)
    t0 = time.perf_counter()
    texts, labels = load()
    train, test = split['train'], split['test']
    nb, x_test, vocabulary = fit_predict([texts[i] for i in train], labels[train], [texts[i] for i in test], d['drop'], d['min'])
    predicted = nb.predict(x_test)
    seconds = time.perf_counter() - t0
    print(json.dumps({'seconds': seconds, 'accuracy': float((predicted == labels[test]).mean()), 'predicted': predicted.tolist(), 'vocabulary': len(vocabulary)}), flush=True)`;
interface PeerRun {
  seconds: number;
  accuracy: number;
  predicted: number[];
  vocabulary: number;
}

interface WinkRun {
  seconds: number;
  accuracy: number;
  predicted: number[];
  unknown: number;
}

// Rounds: each split once by us, then the same split by scikit-learn. Round 1 is cold (ours before
// the JIT has seen the code; the peer's first in a fresh process), the others warm.
const peer = await startPeer<PeerRun>('/usr/bin/python3', ['-c', peerScript], {
  archive,
  drop: options.dropMostFrequent,
  min: options.minCount,
});
if (typeof peer === 'string') console.log(`scikit-learn peer unavailable: ${peer}`);
type OurRun = Awaited<ReturnType<typeof runOurs>>;
const ourRuns: Record<string, OurRun[]> = { mitchell: [], bydate: [] };
const peerRuns: Record<string, PeerRun[]> = { mitchell: [], bydate: [] };
for (let r = 0; r < repeat; r++) {
  for (const name of names) {
    const ours = await runOurs(name, r === 0);
    ourRuns[name]!.push(ours);
    if (typeof peer !== 'string')
      peerRuns[name]!.push(await peer.run({ train: Array.from(ours.split.train), test: Array.from(ours.split.test) }));
  }
}
if (typeof peer !== 'string') peer.stop();

// wink afterwards, in a process of its own that is not alive while ours run: a Node process
// collecting its large heap in the background takes the core our decompression runs on. It is
// ~30× slower, so drift between its rounds and ours does not matter; it gets `--wink-repeat`
// rounds per split and a time budget per run.
const winkRuns: Record<string, WinkRun[]> = { mitchell: [], bydate: [] };
const wink = await startPeer<WinkRun>(
  process.execPath,
  ['--import', 'tsx', join(here, 'peers', 'winkText.ts'), archive],
  undefined,
  winkBudget * 1000,
);
if (typeof wink === 'string') console.log(`wink peer unavailable: ${wink}`);
let winkFailure = typeof wink === 'string' ? wink : undefined;
for (let r = 0; r < winkRepeat && !winkFailure && typeof wink !== 'string'; r++) {
  for (const name of names) {
    const { split, vocabulary } = ourRuns[name]![0]!;
    try {
      winkRuns[name]!.push(
        await wink.run({ train: Array.from(split.train), test: Array.from(split.test), vocabulary }),
      );
    } catch (error) {
      winkFailure = `${name}: ${(error as Error).message}`;
      break;
    }
  }
}
if (typeof wink !== 'string') wink.stop();
const m = ourRuns.mitchell!.slice(1);
console.log(
  `ours, warm median of ${repeat - 1}: load + tokenize ${median(m.map((r) => r.loadMs)).toFixed(0)} ms (${m[0]!.words} words, ${m[0]!.distinct} distinct), train ${median(m.map((r) => r.trainMs)).toFixed(0)} ms`,
);

for (const name of names) {
  const run = ourRuns[name]![0]!,
    us = coldWarm(ourRuns[name]!.map((r) => r.ms / 1000));
  const label = name === 'mitchell' ? `Mitchell protocol (seed ${seed}, 2/3 train)` : 'bydate train/test';
  console.log(`\n${label}: trained on ${run.evaluation.trained}, tested on ${run.evaluation.tested}`);
  const time = (t: ColdWarm) => `cold ${t.cold.toFixed(2)} s, warm ${warmSpread(t, 's')}`;
  console.log(
    `  ours          accuracy ${run.evaluation.accuracy.toFixed(4)}  ${time(us)}${name === 'mitchell' ? '   (Mitchell reports 0.89)' : ''}`,
  );
  const same = (predicted: number[]) => predicted.filter((c, i) => c === run.predicted[i]).length;
  const agreement = (predicted: number[]) => `same prediction on ${same(predicted)}/${predicted.length} documents`;
  const speedUpLine = (them: ColdWarm) => {
    const s = speedUp(us, them);
    return `speed-up cold ${s.cold.toFixed(1)}×, warm ${s.warm.toFixed(1)}×`;
  };
  const p = peerRuns[name]!;
  if (p.length > 0) {
    const them = coldWarm(p.map((r) => r.seconds)),
      last = p[p.length - 1]!;
    console.log(
      `  scikit-learn  accuracy ${last.accuracy.toFixed(4)}  ${time(them)}  (CountVectorizer + MultinomialNB, vocabulary ${last.vocabulary})`,
    );
    console.log(`                ${agreement(last.predicted)}; ${speedUpLine(them)}`);
    const identical = same(last.predicted) === last.predicted.length;
    check(
      them.warm > us.warm && identical,
      `${name}: faster than scikit-learn: ${speedUpText(speedUp(us, them))}${identical ? ', identical predictions' : ', predictions DIFFER'}`,
    );
  } else check(false, `${name}: scikit-learn did not run${typeof peer === 'string' ? `: ${peer}` : ''}`);
  const w = winkRuns[name]!;
  if (w.length > 0) {
    const them = coldWarm(w.map((r) => r.seconds)),
      last = w[w.length - 1]!;
    const warmRuns = w.length > 1 ? `warm: median of ${w.length - 1}` : 'one run: warm is that run';
    console.log(
      `  wink          accuracy ${last.accuracy.toFixed(4)}  ${time(them)}  (${warmRuns}; ${last.unknown} answered 'unknown')`,
    );
    console.log(
      `                ${agreement(last.predicted)}; ${speedUpLine(them)} (ours includes the archive load, wink's does not)`,
    );
    check(them.warm > us.warm, `${name}: faster than wink: ${speedUpText(speedUp(us, them))}`);
  }
  // A failed run ends wink's rounds: said on its split (after the runs it finished) and on the others.
  if (winkFailure && (w.length === 0 || winkFailure.startsWith(name)))
    console.log(`  wink          ${winkFailure.startsWith(name) ? 'did not finish' : 'not run'}: ${winkFailure}`);
}
console.log(`\nwink-naive-bayes-text-classifier: smoothingFactor 1 (Laplace), counts, our tokenizer as its prep task
  and our vocabulary (Mitchell's pruning, which wink lacks), so both sides see the same words; wink's time
  covers tokenize + learn + predict on the decoded Latin-1 strings (archive loaded once, outside the timing);
  wink ranks classes by one-vs-rest log-odds, not by the posterior, so its predictions can differ from ours.`);
goalSummary('bench:text-nb');
