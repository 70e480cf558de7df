/**
 * A declared state no training row shows stays in the naive Bayes classifier's domain when
 * smoothing estimates it (issue 27 item 4): the m-estimate gives it (0 + m·p)/(n + m) with
 * p = 1/|declared states| (Mitchell eq. 6.22). With m = 3 and three states per attribute that is
 * additive smoothing with α = m·p = 1, scikit-learn's CategoricalNB(alpha=1, min_categories=3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from './networkHelpers.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { trainNaiveBayes, classifyNaiveBayes } from '../../../server/src/engine/classifiers/naiveBayes.js';
import { encodeCategorical } from '../../../server/src/engine/categoricalData.js';

const DOMAINS = {
  Color: ['red', 'brown', 'white'],
  Size: ['small', 'medium', 'large'],
  Smell: ['none', 'mild', 'strong'],
};
// No row shows Color = white.
const ROWS = [
  ['red', 'small', 'none', 'yes'],
  ['red', 'large', 'mild', 'no'],
  ['brown', 'small', 'none', 'yes'],
  ['brown', 'medium', 'strong', 'no'],
  ['red', 'medium', 'none', 'yes'],
  ['brown', 'large', 'strong', 'no'],
  ['red', 'small', 'mild', 'yes'],
  ['brown', 'small', 'none', 'no'],
  ['red', 'large', 'none', 'yes'],
];
const QUERIES = [
  ['white', 'small', 'none'],
  ['red', 'small', 'none'],
  ['white', 'large', 'strong'],
];

const skip = pythonMissing(['sklearn', 'numpy']) ?? false;

function sklearn(): number[] {
  const script = `import json, sys
import numpy as np
from sklearn.naive_bayes import CategoricalNB
d = json.load(sys.stdin)
enc = lambda row: [d['domains'][k].index(v) for k, v in zip(['Color', 'Size', 'Smell'], row)]
X = np.array([enc(r[:3]) for r in d['rows']]); y = [r[3] for r in d['rows']]
nb = CategoricalNB(alpha=1.0, min_categories=3).fit(X, y)
yes = list(nb.classes_).index('yes')
print(json.dumps([float(p[yes]) for p in nb.predict_proba(np.array([enc(q) for q in d['queries']]))]))`;
  return runPython<number[]>(script, { domains: DOMAINS, rows: ROWS, queries: QUERIES });
}

function model(smoothing: string): string {
  const data = ROWS.map((r) => `  ${r.join(', ')}`).join('\n');
  return `variable Color { red, brown, white }
variable Size { small, medium, large }
variable Smell { none, mild, strong }
variable Edible { yes, no }
data M {
  Color, Size, Smell, Edible
${data}
}
classifier NB = naive_bayes(M, target: Edible, smoothing: ${smoothing})
${QUERIES.map(([c, s, m]) => `query P(Edible = yes | Color = ${c}, Size = ${s}, Smell = ${m}) in NB`).join('\n')}
`;
}

test('m_estimate(m: 3): white is estimated, as CategoricalNB with min_categories', { skip }, async () => {
  const expected = sklearn();
  const result = await run(model('m_estimate(m: 3)'));
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const answers = result.results.filter((r) => r.kind === 'probability') as { value: number }[];
  assert.equal(answers.length, QUERIES.length);
  answers.forEach((a, i) =>
    assert.ok(Math.abs(a.value - expected[i]!) < 1e-9, `${QUERIES[i]}: ${a.value} vs ${expected[i]}`),
  );
});

test('classify: a declared, unseen value is in the product with smoothing, left out without', () => {
  const data = encodeCategorical(['Color', 'Size', 'Smell', 'Edible'], ROWS, DOMAINS);
  const instance = { Color: 'white', Size: 'small', Smell: 'none' };
  const smoothed = classifyNaiveBayes(trainNaiveBayes(data, 'Edible', { kind: 'mEstimate', m: 3 }), instance);
  assert.deepEqual(smoothed.ignored, []);
  const counted = classifyNaiveBayes(trainNaiveBayes(data, 'Edible', { kind: 'none' }), instance);
  assert.deepEqual(counted.ignored, [{ attribute: 'Color', value: 'white', reason: 'unseen' }]);
  // Left out: the posterior is that of Size and Smell alone. yes: 5/9 · 3/5 · 4/5; no: 4/9 · 1/4 · 1/4.
  const yes = (5 / 9) * (3 / 5) * (4 / 5),
    no = (4 / 9) * (1 / 4) * (1 / 4);
  const p = counted.classes.find((c) => c.value === 'yes')!.posterior!;
  assert.ok(Math.abs(p - yes / (yes + no)) < 1e-12, `${p}`);
});
