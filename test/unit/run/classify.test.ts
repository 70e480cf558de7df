import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { close, errors, resultAt, run, runExample, verdicts } from './helpers.js';
import { repoRoot } from '../../support/shared.js';

const tennis = readFileSync(`${repoRoot}/examples/playtennis.bayes`, 'utf8');

test('PlayTennis (§6.9.1): P(v) Π P(a_i|v) for both classes and v_NB = No', async () => {
  const result = await runExample('playtennis.bayes');
  const classify = resultAt(result, 33, 'classify');
  const yes = (9 / 14) * (2 / 9) * (3 / 9) * (3 / 9) * (3 / 9),
    no = (5 / 14) * (3 / 5) * (1 / 5) * (4 / 5) * (3 / 5);
  close(classify.classes[0]!.score!, yes);
  close(classify.classes[1]!.score!, no);
  close(classify.classes[1]!.posterior!, no / (yes + no));
  assert.equal(classify.headline, 'No · 0.7954');
  assert.deepEqual(verdicts(result)[0], [36, true, 'No']);
});

test('a value never seen in training is left out, with an information diagnostic on it', async () => {
  // Fog occurs only on a day whose Play is not known: the classifier never saw it with a class.
  const text = tennis
    .replace('variable Outlook { Sunny, Overcast, Rain }', 'variable Outlook { Sunny, Overcast, Rain, Fog }')
    .replace(
      'Rain,     Mild,        High,     Strong, No     // D14',
      'Rain,     Mild,        High,     Strong, No     // D14\n  Fog,      Mild,        High,     Strong, ?',
    );
  const result = await run(
    `${text}\nquery classify PlayNB { Outlook: Fog, Temperature: Cool, Humidity: High, Wind: Strong }\n`,
  );
  const line = text.split('\n').length;
  const last = resultAt(result, line, 'classify');
  assert.deepEqual(last.ignored, [{ attribute: 'Outlook', value: 'Fog', reason: 'unseen' }]);
  // Without Outlook: P(v) P(cool|v) P(high|v) P(strong|v).
  const yes = (9 / 14) * (3 / 9) * (3 / 9) * (3 / 9),
    no = (5 / 14) * (1 / 5) * (4 / 5) * (3 / 5);
  close(last.classes[0]!.score!, yes);
  close(last.classes[1]!.score!, no);
  const info = result.diagnostics.find((d) => d.code === 'unseen-value')!;
  assert.equal(info.severity, 'information');
  assert.equal(info.range.start.line, line);
  assert.equal(info.range.start.character, 'query classify PlayNB { Outlook: '.length);
});

test('an attribute the classifier does not have is an error, not a guess', async () => {
  const result = await run(`${tennis}\nquery classify PlayNB { Colour: Red }\n`);
  const bad = errors(result).filter((e) => e.line === tennis.split('\n').length);
  assert.equal(bad.length, 1);
  assert.match(bad[0]!.message, /Colour/);
});

test('a value its column never shows in training is left out (information), unless a declared domain excludes it', async () => {
  const model = (declared: string) => `${declared}
data Train {
  Color, Size,  Fruit
  red,   small, cherry
  brown, big,   apple
  red,   big,   apple
}
classifier NB = naive_bayes(Train, target: Fruit, smoothing: laplace)
query classify NB { Color: white, Size: big }
`;
  const open = await run(model(''));
  assert.deepEqual(errors(open), []);
  const last = resultAt(open, 8, 'classify');
  assert.deepEqual(last.ignored, [{ attribute: 'Color', value: 'white', reason: 'unseen' }]);
  // P(v) P(big | v), Laplace over k = 2 sizes: cherry 1/3 · 1/3, apple 2/3 · 3/4.
  close(last.classes[1]!.posterior!, ((2 / 3) * 3) / 4 / (((1 / 3) * 1) / 3 + ((2 / 3) * 3) / 4));
  const info = open.diagnostics.find((d) => d.code === 'unseen-value')!;
  assert.equal(info.severity, 'information');
  assert.equal(info.range.start.line, 8);
  const declared = await run(model('variable Color { red, brown }'));
  assert.deepEqual(
    errors(declared).map((e) => [e.line, e.code]),
    [[8, 'unknown-state']],
  );
});
