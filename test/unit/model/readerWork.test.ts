/**
 * Hostile network files, generated at two sizes (the larger 10× the smaller): every reader's work —
 * tokens and elements read, characters scanned for line numbers, names looked up, counted by
 * `readerWork` — grows at most 12× (linear), and declarations over the budget are refused on their
 * line before they are kept. The shapes are those that were quadratic: 200,000 character references
 * in one XML text node, a UAI table on one line, variables with 64k states, 100,000 variables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBif } from '../../../server/src/model/bif.js';
import { readHuginNet } from '../../../server/src/model/hugin.js';
import { readerWork, type NetworkReadResult } from '../../../server/src/model/networkText.js';
import { readUai } from '../../../server/src/model/uai.js';
import { readXdsl } from '../../../server/src/model/xdsl.js';
import { readXmlBif } from '../../../server/src/model/xmlbif.js';
import { budgetsFor } from '../../../server/src/engine/budget.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';

function ok(r: NetworkReadResult): BayesianNetwork {
  if ('error' in r) assert.fail(`line ${r.error.line}: ${r.error.message}`);
  return r.network;
}

/** The reader's steps on the file of size n and on the file of size 10 n, and their ratio. */
function linear(generate: (n: number) => string, read: (text: string) => NetworkReadResult, n: number): number {
  const steps = (size: number) => {
    const text = generate(size);
    readerWork.steps = 0;
    ok(read(text));
    return readerWork.steps;
  };
  const small = steps(n);
  const large = steps(10 * n);
  assert.ok(small > 0, 'the reader counts its steps');
  const ratio = large / small;
  assert.ok(ratio <= 12, `10× the input took ${ratio.toFixed(1)}× the steps (${small} → ${large})`);
  return ratio;
}

const states = (n: number, prefix = 's') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const uniform = (n: number) => Array.from({ length: n }, () => 1 / n).join(' ');

test('XML: character references in one text node are decoded in linear work (XMLBIF and XDSL)', () => {
  const refs = (n: number) => Array.from({ length: n }, (_, i) => `&#${0x4e00 + (i % 20_000)};`).join('\n');
  const xmlbif = (n: number) =>
    `<BIF><NETWORK><NAME>${refs(n)}</NAME><VARIABLE><NAME>A</NAME><OUTCOME>a</OUTCOME></VARIABLE>` +
    `<DEFINITION><FOR>A</FOR><TABLE>1</TABLE></DEFINITION></NETWORK></BIF>`;
  linear(xmlbif, (t) => readXmlBif(t), 20_000);
  const xdsl = (n: number) =>
    `<smile id="x"><nodes><cpt id="A"><state id="${refs(n)}"/><probabilities>1</probabilities></cpt></nodes></smile>`;
  linear(xdsl, (t) => readXdsl(t), 20_000);
  // a bad reference is still reported on its own line
  const bad = readXmlBif(`<BIF><NETWORK><NAME>${refs(1000)}\n&#xZZ;</NAME></NETWORK></BIF>`);
  assert.deepEqual('error' in bad && bad.error, { message: "unknown entity '&#xZZ;'", line: 1001 });
});

test('XML: an element flood is refused at the declarations budget, on the line it passes it', () => {
  const flood = (n: number) => `<BIF><NETWORK>\n${'<P/>'.repeat(n)}\n</NETWORK></BIF>`;
  linear(flood, (t) => readXmlBif(t), 5_000);
  const budgets = budgetsFor(16); // 8,192 declarations
  assert.equal(budgets.maxDeclarations, 8192);
  const r = readXmlBif(flood(100_000), budgets);
  assert.deepEqual('error' in r && r.error, {
    message: 'the file needs 8,193 XML elements, over the budget of 8,192',
    line: 2,
  });
  readerWork.steps = 0;
  readXmlBif(flood(1_000_000), budgets);
  assert.ok(readerWork.steps < 200_000, `stopped early: ${readerWork.steps} steps`);
});

test('UAI: 100,000 independent variables, and a table of 10^5 entries on one line, in linear work', () => {
  const independent = (n: number) =>
    `BAYES\n${n}\n${'2 '.repeat(n)}\n${n}\n${states(n, '1 ').join('\n')}\n${'2 0.5 0.5\n'.repeat(n)}`;
  linear(independent, (t) => readUai(t), 10_000);
  const oneLine = (n: number) => `BAYES 1 ${n} 1 1 0 ${n} ${uniform(n)}`;
  linear(oneLine, (t) => readUai(t), 10_000);
  const many = readUai(independent(9000), budgetsFor(16));
  assert.deepEqual('error' in many && many.error, {
    message: 'the network needs 9,000 variables, over the budget of 8,192',
    line: 2,
  });
});

test('BIF and Hugin NET: a variable with 64k states (a parent of another) reads in linear work', () => {
  const bif = (n: number) =>
    `network x {}\nvariable A { type discrete [ ${n} ] { ${states(n).join(', ')} }; }\n` +
    `variable B { type discrete [ 2 ] { a, b }; }\nprobability ( A ) { table ${uniform(n).replace(/ /g, ', ')}; }\n` +
    `probability ( B | A ) { ${states(n)
      .reverse()
      .map((s) => `(${s}) 0.5, 0.5;`)
      .join(' ')} }\n`;
  linear(bif, (t) => readBif(t), 6_400);
  const net = (n: number) =>
    `net {}\nnode A { states = (${states(n)
      .map((s) => `"${s}"`)
      .join(' ')}); }\npotential (A) { data = (${uniform(n)}); }\n`;
  linear(net, (t) => readHuginNet(t), 6_400);
  const budgets = budgetsFor(16);
  const tooMany = readBif(bif(9000), budgets);
  assert.deepEqual('error' in tooMany && tooMany.error, {
    message: "variable 'A' needs 8,193 states, over the budget of 8,192",
    line: 2,
  });
  const netTooMany = readHuginNet(net(9000), budgets);
  assert.deepEqual('error' in netTooMany && netTooMany.error, {
    message: 'a list needs 8,193 items, over the budget of 8,192',
    line: 2,
  });
});

test('BIF: many variables read in linear work; more than the budget is refused on the declaring line', () => {
  const bif = (n: number) => {
    const names = states(n, 'V');
    return [
      'network x {}',
      ...names.map((v) => `variable ${v} { type discrete [ 2 ] { a, b }; }`),
      ...names.map(
        (v, i) =>
          `probability ( ${v}${i ? ` | V${i - 1}` : ''} ) { ${i ? '(a) 0.9, 0.1; (b) 0.2, 0.8;' : 'table 0.5, 0.5;'} }`,
      ),
    ].join('\n');
  };
  linear(bif, (t) => readBif(t), 5_000);
  const r = readBif(bif(9000), budgetsFor(16));
  assert.deepEqual('error' in r && r.error, {
    message: 'the network needs 8,193 variables, over the budget of 8,192',
    line: 8194,
  });
});
