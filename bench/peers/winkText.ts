/**
 * wink-naive-bayes-text-classifier as a peer process for bench/text-nb.ts (a child process, so the
 * bench can stop it when it overruns its time budget). It loads 20 Newsgroups once (not timed:
 * the archive load is shared, see the bench's output), decodes every post as a Latin-1 string,
 * answers "ready", then for each request line {train, test, vocabulary} runs the pipeline
 * tokenize + learn + consolidate + predict on those strings and answers one JSON line.
 *
 * Configuration, as close to our model as wink allows: smoothingFactor 1 (Laplace), word counts
 * (considerOnlyPresence false), and one prep task: our tokenizer (`tokenize`, the same words as
 * ours, so differences come from the classifier, not from tokenizing; wink's own prep-text stems
 * and drops stop words) followed by a filter to the vocabulary our model chose on the same split
 * (Mitchell's pruning, which wink does not offer).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { loadNewsgroups, documentText } from '../../server/src/model/corpus.js';
import { tokenize } from '../../server/src/engine/classifiers/tokenizer.js';

interface WinkClassifier {
  defineConfig(cfg: { considerOnlyPresence: boolean; smoothingFactor: number }): boolean;
  definePrepTasks(tasks: Array<(input: never) => unknown>): number;
  learn(input: string, label: string): boolean;
  consolidate(): boolean;
  predict(input: string): string;
}
const winkNaiveBayes = createRequire(import.meta.url)('wink-naive-bayes-text-classifier') as () => WinkClassifier;

const corpus = loadNewsgroups(readFileSync(process.argv[2]!), 'all');
const texts = corpus.documents.map((_, d) => documentText(corpus, d));
console.log('ready');

for await (const line of createInterface({ input: process.stdin })) {
  const { train, test, vocabulary } = JSON.parse(line) as { train: number[]; test: number[]; vocabulary: string[] };
  const t0 = performance.now();
  const kept = new Set(vocabulary);
  const wink = winkNaiveBayes();
  wink.defineConfig({ considerOnlyPresence: false, smoothingFactor: 1 });
  wink.definePrepTasks([(text: string) => tokenize(text).filter((w) => kept.has(w))]);
  for (const d of train) wink.learn(texts[d]!, corpus.classNames[corpus.labels[d]!]!);
  wink.consolidate();
  const classOf = new Map(corpus.classNames.map((c, i) => [c, i]));
  // wink answers 'unknown' for a post with no vocabulary word: -1, never counted correct.
  const predicted = test.map((d) => classOf.get(wink.predict(texts[d]!)) ?? -1);
  const seconds = (performance.now() - t0) / 1000;
  const correct = predicted.filter((c, i) => c === corpus.labels[test[i]!]).length;
  console.log(
    JSON.stringify({
      seconds,
      accuracy: correct / test.length,
      predicted,
      unknown: predicted.filter((c) => c < 0).length,
    }),
  );
}
