/** `query independent`: d-separation, checked against the numbers (enumeration) of Forest. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enumerate } from '../../support/networks.js';
import { assertNoErrors, example, expectations, networkOf, resultsOf, run } from './networkHelpers.js';

const forest = example('forest');

/** max over z, y of |P(x | y, z) − P(x | z)| by enumeration: 0 when X ⫫ Y | Z in these numbers. */
function dependence(x: string, y: string, z: string[]): number {
  const net = networkOf(forest, 'Forest');
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  let worst = 0;
  for (let zs = 0; zs < 1 << z.length; zs++) {
    const given = new Map(z.map((name, i) => [index.get(name)!, (zs >> i) & 1]));
    const base = enumerate(net, given).marginals[index.get(x)!]![0]!;
    for (const ys of [0, 1]) {
      const withY = enumerate(net, new Map([...given, [index.get(y)!, ys]])).marginals[index.get(x)!]![0]!;
      worst = Math.max(worst, Math.abs(withY - base));
    }
  }
  return worst;
}

const cases: Array<[string, string, string[], boolean]> = [
  ['Thunder', 'Storm', ['Lightning'], true],
  ['Thunder', 'Storm', [], false],
  ['Storm', 'BusTourGroup', [], true],
  ['Storm', 'BusTourGroup', ['Campfire'], false], // a collider, observed
  ['Thunder', 'Campfire', ['Storm'], true],
  ['Thunder', 'Campfire', ['ForestFire'], false],
];

test('Forest: the answers of d-separation and what enumeration shows agree', async () => {
  const lines = cases.map(
    ([x, y, z]) => `query independent ${x}, ${y}${z.length ? ` given ${z.join(', ')}` : ''} in Forest`,
  );
  const result = await run(`${forest}\n${lines.join('\n')}`);
  assertNoErrors(result);
  const answers = resultsOf(result, 'independence').slice(-cases.length);
  cases.forEach(([x, y, z, independent], i) => {
    const a = answers[i]!;
    assert.equal(a.independent, independent, lines[i]);
    assert.equal(dependence(x, y, z) < 1e-12, independent, `${lines[i]}: numbers`);
    if (!independent) {
      assert.equal(a.activePath![0], x);
      assert.equal(a.activePath!.at(-1), y);
      assert.match(a.headline, /^dependent: /);
    }
  });
  const forestExpect = expectations(result).filter((e) => e.result?.kind === 'independence');
  assert.deepEqual(
    forestExpect.map((e) => [e.passed, e.actual]),
    [[true, 'true']],
  );
});

test('an unknown variable is an error on its name', async () => {
  const result = await run(`${forest}\nquery independent Thunder, Rain in Forest`);
  const error = result.diagnostics.find((d) => d.severity === 'error')!;
  assert.match(error.message, /Rain/);
  assert.equal(error.range.start.line, forest.split('\n').length);
});
