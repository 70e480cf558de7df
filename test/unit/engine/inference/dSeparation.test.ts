import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dSeparated } from '../../../../server/src/engine/inference/dSeparation.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { jointTable, loadBif, randomNetwork } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

/** Numerical X ⫫ Y | Z from the joint: P(x, y, z) P(z) = P(x, z) P(y, z) for every x, y, z. */
function independentInJoint(net: BayesianNetwork, x: number, y: number, zs: number[]): boolean {
  const { cards, values } = jointTable(net);
  const key = (a: number[], vars: number[]) => vars.map((v) => a[v]).join(',');
  const pxyz = new Map<string, number>(),
    pxz = new Map<string, number>(),
    pyz = new Map<string, number>(),
    pz = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, p: number) => m.set(k, (m.get(k) ?? 0) + p);
  const a = new Array<number>(cards.length);
  for (let i = 0; i < values.length; i++) {
    let rest = i;
    for (let v = cards.length - 1; v >= 0; v--) {
      a[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
    const z = key(a, zs);
    add(pxyz, `${a[x]}|${a[y]}|${z}`, values[i]!);
    add(pxz, `${a[x]}|${z}`, values[i]!);
    add(pyz, `${a[y]}|${z}`, values[i]!);
    add(pz, z, values[i]!);
  }
  for (const [k, p] of pxyz) {
    const [xs, ys, z] = k.split('|') as [string, string, string];
    if (Math.abs(p * pz.get(z)! - pxz.get(`${xs}|${z}`)! * pyz.get(`${ys}|${z}`)!) > 1e-12) return false;
  }
  return true;
}

/** Checks that `path` is a trail of the DAG that is active given Z. */
function assertActiveTrail(net: BayesianNetwork, path: number[], zs: number[]): void {
  const isParent = (p: number, c: number) => net.cpts[c]!.parents.includes(p);
  const descendantsInZ = (v: number): boolean =>
    zs.includes(v) || net.cpts.some((c) => c.parents.includes(v) && descendantsInZ(c.child));
  for (let i = 0; i + 1 < path.length; i++)
    assert.ok(isParent(path[i]!, path[i + 1]!) || isParent(path[i + 1]!, path[i]!), 'not an edge');
  for (let i = 1; i + 1 < path.length; i++) {
    const [a, b, c] = [path[i - 1]!, path[i]!, path[i + 1]!];
    const collider = isParent(a, b) && isParent(c, b);
    assert.ok(collider ? descendantsInZ(b) : !zs.includes(b), `trail blocked at ${b}`);
  }
}

test('d-separation agrees with numerical independence on random networks', () => {
  const rng = createRng(2024);
  let dependent = 0,
    independent = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const net = randomNetwork(seed, 7, 2);
    for (let trial = 0; trial < 6; trial++) {
      const x = rng.int(7);
      let y = rng.int(7);
      if (y === x) y = (y + 1) % 7;
      const zs = [...Array(7).keys()].filter((v) => v !== x && v !== y && rng.next() < 0.3);
      const answer = dSeparated(net, [x], [y], zs);
      assert.equal(answer.independent, independentInJoint(net, x, y, zs), `seed ${seed}: V${x} ⫫ V${y} | ${zs}`);
      if (answer.independent) independent++;
      else {
        dependent++;
        assert.equal(answer.activePath[0], x);
        assert.equal(answer.activePath[answer.activePath.length - 1], y);
        assertActiveTrail(net, answer.activePath, zs);
      }
    }
  }
  assert.ok(dependent > 20 && independent > 20, `both outcomes exercised (${dependent} / ${independent})`);
});

test('asia: the textbook cases (chain, fork, collider and its descendant)', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const v = (name: string) => net.variables.findIndex((x) => x.name === name);
  const name = (path: number[]) => path.map((i) => net.variables[i]!.name);
  assert.equal(dSeparated(net, [v('asia')], [v('smoke')], []).independent, true);
  const collider = dSeparated(net, [v('asia')], [v('smoke')], [v('either')]);
  assert.ok(!collider.independent);
  assert.deepEqual(name(collider.activePath), ['asia', 'tub', 'either', 'lung', 'smoke']);
  assert.equal(dSeparated(net, [v('asia')], [v('smoke')], [v('dysp')]).independent, false); // descendant of a collider
  assert.equal(dSeparated(net, [v('tub')], [v('xray')], [v('either')]).independent, true); // chain blocked
  assert.equal(dSeparated(net, [v('lung')], [v('bronc')], [v('smoke')]).independent, true); // fork blocked
});
