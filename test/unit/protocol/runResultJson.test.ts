import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResultEntry, PosteriorResult } from '../../../server/src/protocol/runResult.js';
import { posterior } from '../../../server/src/engine/hypotheses/bayesTheorem.js';
import { conceptExamples } from '../../../server/src/engine/hypotheses/conjunctiveHypotheses.js';
import { conceptPosterior } from '../../../server/src/engine/hypotheses/versionSpace.js';
import { bayesOptimal } from '../../../server/src/engine/hypotheses/bayesOptimal.js';
import { gibbsClassify } from '../../../server/src/engine/hypotheses/gibbsAlgorithm.js';
import { leastSquares } from '../../../server/src/engine/hypotheses/leastSquares.js';
import { logisticNewton } from '../../../server/src/engine/hypotheses/sigmoidUnit.js';
import { parameterPosterior } from '../../../server/src/engine/estimators/parameterLearning.js';
import { trainNaiveBayes, classifyNaiveBayes } from '../../../server/src/engine/classifiers/naiveBayes.js';
import { evaluate, learningCurve } from '../../../server/src/engine/classifiers/evaluation.js';
import { scoreTrees } from '../../../server/src/engine/hypotheses/decisionTree.js';
import { mdlChoice } from '../../../server/src/engine/hypotheses/mdl.js';
import { enjoySport, newsReading, playTennis } from '../engine/fixtures.js';

const base = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  source: 'query …',
  headline: '',
};

test('result entries built from engine outputs survive JSON unchanged, also when P(D) = 0', () => {
  const impossible = posterior([{ name: 'a', prior: 1 }], [-Infinity]);
  const fromTable = (t: typeof impossible): PosteriorResult => ({
    ...base,
    kind: 'posterior',
    evidence: t.evidence,
    evidencePossible: t.evidencePossible,
    map: t.map,
    ml: t.ml,
    rows: t.rows.map(({ logLikelihood: _, ...row }) => row),
  });
  const tennis = playTennis();
  const model = trainNaiveBayes(tennis, 'PlayTennis', { kind: 'none' });
  const c = classifyNaiveBayes(model, { Outlook: 'Sunny', Wind: 'Gale' });
  const labels = tennis.columns[4]!;
  const predictAll = (_: Int32Array, test: Int32Array) => test.map(() => 0);
  const { logEvidence: _, ...concept } = conceptPosterior(
    conceptExamples(enjoySport(), ['Sky', 'AirTemp', 'Humidity', 'Wind', 'Water', 'Forecast'], 'EnjoySport', 'Yes'),
    { noise: 0.1 },
  );
  const trees = scoreTrees(
    [{ name: 'd0', tree: { kind: 'leaf', distribution: [0.5, 0.5] } }],
    newsReading(),
    'UserAction',
  );
  const hs = [
    { name: 'h1', posterior: 0.4, prediction: [1, 0] },
    { name: 'h2', posterior: 0.6, prediction: [0, 1] },
  ];
  const entries: ResultEntry[] = [
    fromTable(impossible),
    fromTable(
      posterior(
        [
          { name: 'a', prior: 0.5 },
          { name: 'b', prior: 0.5 },
        ],
        [Math.log(0.2), Math.log(0.4)],
      ),
    ),
    { ...base, kind: 'versionSpace', ...concept },
    { ...base, kind: 'mdl', code: 'bits', ...mdlChoice([{ hypothesis: 'h', hypothesisBits: 1, dataBits: 2 }]) },
    { ...base, kind: 'treeScores', trees, examples: 18, bestBic: 'd0', bestMdl: 'd0' },
    { ...base, kind: 'optimal', ...bayesOptimal(hs, ['+', '-']) },
    { ...base, kind: 'gibbs', ...gibbsClassify(hs, ['+', '-'], 1, 3) },
    { ...base, kind: 'leastSquares', ...leastSquares(['x'], [[1], [2], [4]], [1, 2, 2]) },
    { ...base, kind: 'logistic', method: 'newton', ...logisticNewton(['x'], [[1], [2], [3], [4]], [0, 1, 0, 1]) },
    {
      ...base,
      kind: 'parameter',
      parameter: 'P(Toss)',
      ...parameterPosterior(['heads', 'tails'], [1, 1], [8, 4], { level: 0.9 }),
    },
    { ...base, kind: 'classify', classifier: 'PlayNB', classes: c.classes, predicted: c.predicted, ignored: c.ignored },
    {
      ...base,
      kind: 'evaluation',
      classifier: 'PlayNB',
      method: 'folds 2',
      ...evaluate(labels, ['Yes', 'No'], predictAll, { kind: 'folds', k: 2, seed: 1 }),
    },
    {
      ...base,
      kind: 'learningCurve',
      classifier: 'PlayNB',
      seed: 1,
      points: learningCurve(labels, predictAll, [3, 6], 1),
    },
  ];
  for (const e of entries) assert.deepEqual(JSON.parse(JSON.stringify(e)), e, e.kind);
  assert.equal((entries[0] as PosteriorResult).rows[0]!.posterior, undefined);
});
