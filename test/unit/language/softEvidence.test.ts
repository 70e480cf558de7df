/** `X ~ { … }` (soft) and `X ~ likelihood { … }` (virtual) evidence, and `observe … in N`: parse and check. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brief, diagnose, fakeEnv, only, r } from './helpers.js';
import { parseDocument } from '../../../server/src/language/index.js';
import { nameIndex } from '../../../server/src/language/index.js';

const lab = `network Lab {
  variable Test { pos, neg }
  variable Disease : bool
  P(Disease) = 0.1
  P(Test | Disease) { true: { pos: 0.9, neg: 0.1 }, false: { pos: 0.2, neg: 0.8 } }
}
`;

test('observe with soft and virtual findings and `in N` parses into findings with exact ranges', () => {
  const text = 'observe Test ~ likelihood { pos: 0.8, neg: 20% }, Disease ~ { true: 0.3, false: 0.7 } in Lab';
  const s = only(text, 'observe');
  assert.equal(s.in?.text, 'Lab');
  assert.equal(s.items.length, 2);
  const [test1, disease] = s.items;
  assert.equal(test1!.value, undefined);
  assert.equal(test1!.finding?.likelihood, true);
  assert.deepEqual(
    test1!.finding?.entries.map((e) => [e.state?.text, e.value.value]),
    [
      ['pos', 0.8],
      ['neg', 0.2],
    ],
  );
  assert.deepEqual(test1!.finding?.range, r(0, 13, 0, 48));
  assert.deepEqual(test1!.range, r(0, 8, 0, 48));
  assert.equal(disease!.finding?.likelihood, false);
  assert.deepEqual(
    disease!.finding?.entries.map((e) => e.state?.text),
    ['true', 'false'],
  );
});

test('findings after | and given in queries, beside hard evidence', () => {
  const text = 'query P(Disease | Test ~ { pos: 0.7, neg: 0.3 }, Disease2 = x) in Lab given T2 ~ likelihood { a: 1 }';
  const q = only(text, 'queryStatement');
  assert.equal(q.query.form, 'probability');
  if (q.query.form !== 'probability') return;
  assert.equal(q.query.prob.conditions[0]!.finding?.likelihood, false);
  assert.equal(q.query.prob.conditions[1]!.value?.kind, 'ref');
  assert.equal(q.query.given[0]!.finding?.likelihood, true);
});

test('a clean model with findings has no diagnostics', () => {
  const text = `${lab}observe Test ~ { pos: 0.7, neg: 0.3 } in Lab
query P(Disease | Test ~ likelihood { pos: 4, neg: 1 }) in Lab
query mpe Lab given Test ~ likelihood { pos: 0.1, neg: 0.9 }
query sensitivity P(Disease = true | Test ~ likelihood { pos: 0.8, neg: 0.2 }) in Lab`;
  assert.deepEqual(brief(diagnose(text)), []);
});

test('bad findings are diagnostics on the exact range', () => {
  // Each case: the line after the network (line 6), the code and the exact text it must cover.
  const cases: [string, string, string, number?][] = [
    ['observe Test ~ { pos: 0.7, neg: 0.4 } in Lab', 'soft-evidence', '~ { pos: 0.7, neg: 0.4 }'],
    ['observe Test ~ likelihood { pos: 0, neg: 0 } in Lab', 'soft-evidence', '~ likelihood { pos: 0, neg: 0 }'],
    ['observe Test ~ likelihood { pos: -1, neg: 1 } in Lab', 'bad-number', '-1'],
    ['observe Test ~ { pos: 1.5, neg: 0.5 } in Lab', 'probability-range', '1.5'],
    ['observe Test ~ { pos: 0.5, pos: 0.5 } in Lab', 'soft-evidence', 'pos', 1],
    ['observe Test ~ { pos: 0.5, nge: 0.5 } in Lab', 'unknown-state', 'nge'],
    ['query P(Test ~ { pos: 0.5, neg: 0.5 }) in Lab', 'soft-evidence', '~ { pos: 0.5, neg: 0.5 }'],
    ['observe Test = pos in Nowhere', 'undefined-name', 'Nowhere'],
    ['observe Tset = pos in Lab', 'undefined-name', 'Tset'],
  ];
  for (const [line, code, text, nth = 0] of cases) {
    let start = line.indexOf(text);
    for (let k = 0; k < nth; k++) start = line.indexOf(text, start + 1);
    assert.deepEqual(brief(diagnose(`${lab}${line}`)), [`${code}@6:${start}-6:${start + text.length}`], line);
  }
});

test('observe … in an imported network checks names against the BIF file', () => {
  const env = fakeEnv({ '/ws/alarm.bif': { variables: [{ name: 'HR', states: ['LOW', 'NORMAL', 'HIGH'] }] } });
  const text = [
    'import network Alarm from "alarm.bif"',
    'observe HR = HIGH in Alarm',
    'observe HR ~ likelihood { LOW: 1, HIHG: 2 } in Alarm',
  ].join('\n');
  assert.deepEqual(brief(diagnose(text, env)), ['unknown-state@2:34-2:38']);
});

test('the name index (definition, rename) sees the network of `observe … in N` and the states of a finding', () => {
  const text = `${lab}observe Test ~ likelihood { pos: 0.8, neg: 0.2 } in Lab`;
  const { ast } = parseDocument(text);
  const index = nameIndex(ast);
  const line = text.split('\n')[6]!;
  const at = (t: string) =>
    index.occurrences.find((o) => o.name.range.start.line === 6 && o.name.range.start.character === line.indexOf(t));
  assert.equal(at('Lab')?.symbol.kind, 'network');
  assert.equal(at('Test')?.symbol.kind, 'variable');
  const pos = at('pos');
  assert.equal(pos?.symbol.kind, 'state');
  // The same symbol as the state's declaration in the network.
  const declared = index.occurrences.find((o) => o.name.range.start.line === 1 && o.name.text === 'pos');
  assert.equal(declared?.symbol, pos?.symbol);
});
