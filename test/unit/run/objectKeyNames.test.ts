/**
 * Names that are also the names of Object.prototype's members (`__proto__`, `constructor`,
 * `toString`, `hasOwnProperty`) are ordinary names: as variables, states and columns they are
 * stored, found and reported like any other. A plain `{}` keyed by them loses `__proto__` (the
 * assignment sets the prototype) and finds `constructor` when it is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { main } from '../../../server/src/cli.js';
import { signatureHelp } from '../../../server/src/features/signatureHelp.js';
import { numberRecords } from '../../../server/src/features/resultView.js';
import type { ResultEntry } from '../../../server/src/protocol/runResult.js';
import { readXmlBif } from '../../../server/src/model/xmlbif.js';
import { capture, tempFile } from '../../support/cli.js';
import { entries, problems, run } from './learningHelpers.js';

const MODEL = `network N {
  variable __proto__ { constructor, toString }
  variable constructor, hasOwnProperty : bool
  P(__proto__) { constructor: 0.3, toString: 0.7 }
  P(constructor | __proto__) { constructor: 0.9, toString: 0.2 }
  P(hasOwnProperty | constructor) { true: 0.7, false: 0.1 }
}
query P(__proto__ | hasOwnProperty = true) in N
query mpe N given hasOwnProperty = true
data D {
  __proto__, constructor, hasOwnProperty
  constructor, false, true
  toString, true, false
  constructor, true, true
  toString, false, false
}
learn N from D by counting
classifier C = naive_bayes(D, target: hasOwnProperty)
query classify C { __proto__: constructor, constructor: false }
`;

/** A record with exactly these own entries (an object literal would take `__proto__` as the prototype). */
const own = (pairs: [string, unknown][]) => Object.fromEntries(pairs);

test('variables, states and columns named __proto__ and constructor run like any other name', async () => {
  const result = await run(MODEL);
  assert.deepEqual(problems(result), []);
  // P(hasOwnProperty = true | __proto__) = 0.9·0.7 + 0.1·0.1 = 0.64, 0.2·0.7 + 0.8·0.1 = 0.22:
  // P(__proto__ = constructor | e) = 0.3·0.64 / (0.3·0.64 + 0.7·0.22).
  const [posterior] = entries(result, 'probability');
  assert.deepEqual(
    posterior!.table.map((row) => row.states),
    [['constructor'], ['toString']],
  );
  assert.ok(Math.abs(posterior!.table[0]!.p - 0.192 / 0.346) < 1e-12, `${posterior!.table[0]!.p}`);
  // MPE given hasOwnProperty: (constructor, true) 0.3·0.9·0.7 = 0.189 beats (toString, false) 0.7·0.8·0.1.
  const [mpe] = entries(result, 'mpe');
  assert.deepEqual(
    mpe!.assignment,
    own([
      ['__proto__', 'constructor'],
      ['constructor', 'true'],
    ]),
  );
  const [learnt] = entries(result, 'learnedNetwork');
  assert.deepEqual(Object.keys(learnt!.cpts), ['__proto__', 'constructor', 'hasOwnProperty']);
  assert.deepEqual(learnt!.cpts['constructor']!.rows[0]!.given, own([['__proto__', 'constructor']]));
  // Naive Bayes: P(__proto__ = constructor | false) = 0, so the class is true with probability 1.
  const [classified] = entries(result, 'classify');
  assert.equal(classified!.predicted, 'true');
  assert.deepEqual(
    classified!.classes.map((c) => [c.value, c.posterior]),
    [
      ['true', 1],
      ['false', 0],
    ],
  );
});

test('a cause whose states are named __proto__ and constructor keeps both rows of its effect', async () => {
  const model = `network N {
  variable X { __proto__, constructor }
  variable Y : bool
  P(X) { __proto__: 0.4, constructor: 0.6 }
  P(Y | X) { __proto__: 0.9, constructor: 0.2 }
}
query effect X -> Y in N
`;
  const result = await run(model);
  assert.deepEqual(problems(result), []);
  const [effect] = entries(result, 'effect');
  assert.deepEqual(Object.keys(effect!.interventional), ['__proto__', 'constructor']);
  assert.equal(effect!.interventional['__proto__']!['true'], 0.9);
  assert.equal(effect!.interventional['constructor']!['true'], 0.2);
});

test('bayes marginals marks only the variables observed, whatever their names', async () => {
  const { file, dir } = tempFile(
    'n.bayes',
    'network N {\n  variable constructor, toString : bool\n  P(constructor) = 0.3\n' +
      '  P(toString | constructor) { true: 0.9, false: 0.2 }\n}\n',
  );
  try {
    const io = capture();
    assert.equal(await main(['marginals', file], io), 0, io.stderr);
    assert.equal(
      io.stdout,
      'N: exact\nconstructor: true 0.300000  false 0.700000\ntoString: true 0.410000  false 0.590000\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('signature help after `constructor(` or `by toString {` offers nothing, and does not throw', () => {
  for (const text of ['hypotheses H = constructor(', 'learn N from D by toString { ', 'x = hasOwnProperty(1, ']) {
    assert.equal(signatureHelp(text, { line: 0, character: text.length }), null, text);
  }
});

test('XMLBIF: `&constructor;` is an unknown entity, not the text of Object’s constructor', () => {
  const xml = (name: string) =>
    `<BIF VERSION="0.3"><NETWORK><NAME>n</NAME><VARIABLE TYPE="nature"><NAME>${name}</NAME>` +
    '<OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>' +
    `<DEFINITION><FOR>${name}</FOR><TABLE>0.5 0.5</TABLE></DEFINITION></NETWORK></BIF>`;
  const read = readXmlBif(xml('A&constructor;'));
  assert.ok('error' in read, 'read as a network');
  assert.match(read.error.message, /unknown entity '&constructor;'/);
  const fine = readXmlBif(xml('A&amp;B'));
  assert.ok('network' in fine && fine.network.variables[0]!.name === 'A&B');
});

test('result rows named by hypothesis keep a row named __proto__ (hover and inlay hints read them)', () => {
  const entry = {
    kind: 'optimal',
    rows: [
      { hypothesis: '__proto__', posterior: 0.25 },
      { hypothesis: 'constructor', posterior: 0.75 },
    ],
  } as unknown as ResultEntry;
  const posterior = numberRecords(entry).find((r) => r.field === 'rows.posterior');
  assert.ok(posterior, JSON.stringify(numberRecords(entry)));
  assert.deepEqual(
    posterior.record,
    own([
      ['__proto__', 0.25],
      ['constructor', 0.75],
    ]),
  );
});
