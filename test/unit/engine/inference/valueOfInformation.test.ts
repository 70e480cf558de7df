/**
 * The diagnosis measures (engine/inference/valueOfInformation.ts, dataConflict.ts) against brute
 * force: the full joint of asia (2^8 entries), survey (mixed 2- and 3-state variables, 216) and
 * sachs (3^11 = 177,147) enumerated, every I(T; X | e) and conf(e) summed from it, to 1e-9.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entropy, informationRanking } from '../../../../server/src/engine/inference/valueOfInformation.js';
import { dataConflict } from '../../../../server/src/engine/inference/dataConflict.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';
import { jointTable, loadBif, sumJoint } from '../../../support/networks.js';

const NO_SHARED = 'no ../shared BIF files';

type Joint = ReturnType<typeof jointTable>;

function bruteMi(j: Joint, t: number, x: number, e: Map<number, number>): number {
  const pe = sumJoint(j, [t, x], e);
  const z = pe.reduce((a, b) => a + b, 0);
  const kt = j.cards[t]!,
    kx = j.cards[x]!;
  const pt = new Float64Array(kt),
    px = new Float64Array(kx);
  for (let a = 0; a < kt; a++)
    for (let b = 0; b < kx; b++) {
      pt[a]! += pe[a * kx + b]! / z;
      px[b]! += pe[a * kx + b]! / z;
    }
  // The expected entropy reduction, written the other way from the engine's formula.
  const h = (q: ArrayLike<number>) => -Array.from(q).reduce((s, v) => s + (v > 0 ? v * Math.log(v) : 0), 0);
  let expected = 0;
  for (let b = 0; b < kx; b++) {
    if (px[b]! === 0) continue;
    const cond = Array.from({ length: kt }, (_, a) => pe[a * kx + b]! / z / px[b]!);
    expected += px[b]! * h(cond);
  }
  return h(pt) - expected;
}

const cases: Array<[string, string, Record<string, string>]> = [
  ['asia', 'lung', { xray: 'yes' }],
  ['asia', 'either', {}],
  ['survey', 'T', { S: 'F', R: 'big' }],
  ['sachs', 'PKA', { Erk: 'HIGH' }],
];

for (const [name, targetName, named] of cases) {
  test(`${name}: I(${targetName}; X | ${JSON.stringify(named)}) for every X equals the enumerated expected entropy reduction (1e-9)`, (t) => {
    const net = loadBif(name);
    if (!net) return t.skip(NO_SHARED);
    const idx = (n: string) => net.variables.findIndex((v) => v.name === n);
    const e = new Map(
      Object.entries(named).map(([v, s]) => [idx(v), net.variables[idx(v)]!.states.indexOf(s)] as [number, number]),
    );
    for (const [v, s] of e) assert.ok(v >= 0 && s >= 0);
    const target = idx(targetName);
    const j = jointTable(net);
    const got = informationRanking(net, target, e);
    assert.equal(got.ranking.length, net.variables.length - 1 - e.size);
    const pt = sumJoint(j, [target], e);
    const z = pt.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(got.entropy - entropy(Array.from(pt, (x) => x / z))) < 1e-9);
    for (const r of got.ranking) {
      const want = bruteMi(j, target, r.variable, e);
      assert.ok(Math.abs(r.nats - want) < 1e-9, `${net.variables[r.variable]!.name}: ${r.nats} vs ${want}`);
      assert.ok(r.nats <= got.entropy + 1e-12, 'no observation removes more than H(T | e)');
    }
    for (let i = 1; i < got.ranking.length; i++) assert.ok(got.ranking[i - 1]!.nats >= got.ranking[i]!.nats);
    assert.ok(got.ranking[0]!.nats > 1e-3, 'something is informative');
  });
}

test('asia: conf(e) = ln(Π P(e_i) / P(e)) equals the enumeration; consistent findings score below 0, conflicting above', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const j = jointTable(net);
  const idx = (n: string) => net.variables.findIndex((v) => v.name === n);
  const ev = (o: Record<string, string>) =>
    new Map(Object.entries(o).map(([v, s]) => [idx(v), net.variables[idx(v)]!.states.indexOf(s)] as [number, number]));
  const brute = (e: Map<number, number>) => {
    const all = sumJoint(j, [], e)[0]!;
    const single = [...e].map(([v, s]) => sumJoint(j, [], new Map([[v, s]]))[0]!);
    return Math.log(single.reduce((a, b) => a * b, 1) / all);
  };
  // Smoking and bronchitis go together; dyspnoea without bronchitis or lung disease, with a positive x-ray, does not.
  const agree = ev({ smoke: 'yes', bronc: 'yes', dysp: 'yes' });
  const clash = ev({ lung: 'yes', xray: 'no' });
  for (const e of [agree, clash, ev({ asia: 'yes', tub: 'yes', xray: 'yes' })]) {
    const got = dataConflict(net, e);
    assert.ok(Math.abs(got.conflict - brute(e)) < 1e-9, `${got.conflict} vs ${brute(e)}`);
  }
  assert.ok(dataConflict(net, agree).conflict < 0);
  assert.ok(dataConflict(net, clash).conflict > 0);
  assert.throws(() => dataConflict(net, ev({ smoke: 'yes' })), EngineError);
  assert.throws(() => dataConflict(net, ev({ tub: 'yes', either: 'no' })), /impossible/);
  assert.throws(() => informationRanking(net, idx('lung'), ev({ lung: 'yes' })), /observed/);
});
