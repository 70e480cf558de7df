import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readHuginHybrid, readHuginNet, writeHuginHybrid } from '../../../server/src/model/hugin.js';
import { readLinearMean } from '../../../server/src/model/huginGaussian.js';
import type { HybridNetwork, LinearGaussianCpd } from '../../../server/src/engine/gaussian/hybridNetwork.js';
import { budgetsFor } from '../../../server/src/engine/budget.js';
import { randomHybridNetwork } from '../../support/hybridNetworks.js';

const CLG = `net { name = "clg"; }
node D { states = ("a" "b"); }
node E { states = ("x" "y" "z"); }
continuous node Y { label = "y"; position = (10 10); }
continuous node X { }
potential (D) { data = (0.3 0.7); }
potential (E | D) { data = ((0.2 0.3 0.5) (0.1 0.1 0.8)); }
potential (Y) { data = ( normal ( 1, 2 ) ); }
% nested by discrete parent, the continuous one between them
potential (X | D Y E) {
  data = (( normal ( 1 + 2 * Y, 1.5 ) normal ( Y*-3e-1 - 2, 0.25 ) normal ( - Y, 1E-3 ) )
          ( normal ( 0.5, 2 ) normal ( -.5 - 1.5 * Y + 0.25 * Y, 3 ) normal ( 2 * Y + 7, 4.5e2 ) ));
}
`;

function read(text: string): HybridNetwork {
  const r = readHuginHybrid(text);
  if (!('hybrid' in r)) throw new Error(JSON.stringify(r));
  return r.hybrid;
}

function gaussian(net: HybridNetwork, name: string): LinearGaussianCpd {
  const cpd = net.cpds[net.variables.findIndex((v) => v.name === name)]!;
  assert.equal(cpd.kind, 'gaussian');
  return (cpd as { cpd: LinearGaussianCpd }).cpd;
}

test('continuous nodes and CLG potentials as Hugin writes them: nesting, any term order, signs, exponents', () => {
  const net = read(CLG);
  assert.deepEqual(
    net.variables.map((v) => [v.name, v.kind]),
    [
      ['D', 'discrete'],
      ['E', 'discrete'],
      ['Y', 'continuous'],
      ['X', 'continuous'],
    ],
  );
  const x = gaussian(net, 'X');
  assert.deepEqual(x.discreteParents, [0, 1]);
  assert.deepEqual(x.continuousParents, [2]);
  assert.deepEqual([...x.intercepts], [1, -2, 0, 0.5, -0.5, 7]);
  assert.deepEqual([...x.coefficients], [2, -0.3, -1, 0, -1.25, 2]);
  assert.deepEqual([...x.variances], [1.5, 0.25, 1e-3, 2, 3, 450]);
  assert.deepEqual([...gaussian(net, 'Y').intercepts], [1]);
});

test('round trip: NET → IR → NET → IR keeps every number bit for bit', () => {
  for (const net of [
    read(CLG),
    randomHybridNetwork({ continuous: 12, discrete: 4, seed: 3 }),
    randomHybridNetwork({ continuous: 40, seed: 8 }),
  ]) {
    const text = writeHuginHybrid(net);
    const again = read(text);
    assert.deepEqual(again, { ...net, name: again.name });
    assert.equal(writeHuginHybrid(again), text);
  }
});

test('mean expressions: terms in any order, coefficients on either side, repeated names add up', () => {
  const m = readLinearMean('-Y*2 + 3 + 4.5e-1*Z - Y - -1', 1);
  assert.equal(m.intercept, 4);
  assert.deepEqual(
    [...m.coefficients],
    [
      ['Y', -3],
      ['Z', 0.45],
    ],
  );
  assert.throws(() => readLinearMean('Y * Z', 3), /not linear/);
  assert.throws(() => readLinearMean('1 2', 3), /without \+ or -/);
  assert.throws(() => readLinearMean('1 + ', 3), /operator where/);
});

test('bad continuous potentials are errors on their line, with the reason', () => {
  const cases: [string, RegExp, number][] = [
    [CLG.replace('normal ( 1, 2 )', 'normal ( 1, 0 )'), /variance of 'Y' must be > 0/, 8],
    [CLG.replace('normal ( 1, 2 )', 'normal ( 1 + Q, 2 )'), /uses 'Q', which is not one of its continuous parents/, 8],
    [CLG.replace('normal ( 1, 2 )', 'normal ( 1 )'), /two arguments/, 8],
    [
      CLG.replace('potential (E | D)', 'potential (E | D Y)'),
      /'E' is discrete and cannot have the continuous parent 'Y'/,
      7,
    ],
    [CLG.replace(' normal ( 0.5, 2 )', ''), /5 normal distributions, expected 6/, 10],
    [
      CLG.replace(
        'potential (Y) { data = ( normal ( 1, 2 ) ); }',
        'potential (Y | X) { data = ( normal ( 1 + X, 2 ) ); }',
      ),
      /cycle/,
      8,
    ],
  ];
  for (const [text, message, line] of cases) {
    const r = readHuginHybrid(text);
    assert.ok('error' in r, String(message));
    assert.match(r.error.message, message);
    assert.equal(r.error.line, line, String(message));
  }
  const big = readHuginHybrid(CLG, { ...budgetsFor(1), maxTableEntries: 10 });
  assert.ok('error' in big && /the potential of 'X' needs 18 entries, over the budget of 10/.test(big.error.message));
  const discrete = readHuginNet(CLG);
  assert.ok('error' in discrete && /continuous node/.test(discrete.error.message));
});

test('a file without continuous nodes reads as the discrete network it is', () => {
  const r = readHuginHybrid('node A { states = ("t" "f"); } potential (A) { data = (0.4 0.6); }');
  assert.ok('network' in r);
  assert.deepEqual([...r.network.cpts[0]!.table], [0.4, 0.6]);
});
