import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interactiveMarginals, type EvidenceRequest } from '../../../server/src/run/interactiveMarginals.js';
import { exactPlan, posteriorMarginals } from '../../../server/src/engine/inference/marginals.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { createRng } from '../../../server/src/engine/random.js';
import { resolveEvidence, resolveFindings } from '../../../server/src/run/namedEvidence.js';
import { hubChain, maxAbsDiff, randomNetwork } from '../../support/networks.js';

test("the results panel's clicks keep the full tree, where a one-shot answer would reduce it", () => {
  const net = hubChain();
  const oneShot = posteriorMarginals(hubChain(), new Map([[0, 3]]));
  assert.ok(oneShot.ok);
  assert.match(oneShot.reason!, /reduced by the evidence/);
  const reply = interactiveMarginals(net, { evidence: { H: 'h3' } });
  assert.ok(!('error' in reply), JSON.stringify(reply));
  assert.ok(exactPlan(net).compiled, 'the full tree is compiled and kept for the next click');
  net.variables.forEach((v, i) => assert.ok(maxAbsDiff(reply.marginals[v.name]!, oneShot.marginals[i]!) < 1e-12));
});

/** Independent answer: the findings as Pearl's virtual nodes on a fresh copy of the network (softEvidence.ts). */
function virtualNodeAnswer(net: BayesianNetwork, request: EvidenceRequest): Float64Array[] {
  const copy: BayesianNetwork = { ...net, cpts: net.cpts.map((c) => ({ ...c, table: Float64Array.from(c.table) })) };
  const hard = resolveEvidence(copy, request.evidence ?? {});
  assert.ok('evidence' in hard);
  const found = resolveFindings(copy, hard.evidence, request.likelihoods ?? {}, request.soft ?? {});
  assert.ok('net' in found, JSON.stringify(found));
  const answer = posteriorMarginals(found.net, found.evidence, { method: 'exact' });
  assert.ok(answer.ok);
  return answer.marginals.slice(0, net.variables.length);
}

test('virtual and soft findings are entered in the kept tree: the same answers as virtual nodes, click after click', () => {
  const rng = createRng(7);
  const vector = (k: number) => Array.from({ length: k }, () => 0.05 + rng.next());
  const distribution = (k: number) => {
    const xs = vector(k);
    const sum = xs.reduce((a, b) => a + b, 0);
    return xs.map((x) => x / sum);
  };
  for (let seed = 1; seed <= 6; seed++) {
    const net = randomNetwork(seed, 12, 3);
    const names = net.variables.map((v) => v.name);
    const cards = net.variables.map((v) => v.states.length);
    for (let click = 0; click < 4; click++) {
      // One observed variable, one virtual finding, and (every other click) one soft finding, all distinct.
      const [o, l, s] = [0, 1, 2].map((i) => (click * 3 + i + seed) % names.length);
      const request: EvidenceRequest = {
        evidence: { [names[o]!]: net.variables[o]!.states[click % cards[o]!]! },
        likelihoods: { [names[l]!]: vector(cards[l]!) },
        ...(click % 2 === 0 ? { soft: { [names[s]!]: distribution(cards[s]!) } } : {}),
      };
      const reply = interactiveMarginals(net, request);
      assert.ok(!('error' in reply), JSON.stringify(reply));
      assert.equal(reply.method, 'exact');
      const expected = virtualNodeAnswer(net, request);
      names.forEach((name, i) =>
        assert.ok(maxAbsDiff(reply.marginals[name]!, expected[i]!) < 1e-9, `seed ${seed}, click ${click}, ${name}`),
      );
      if (request.soft) {
        const [name, q] = Object.entries(request.soft)[0]!;
        assert.ok(maxAbsDiff(reply.marginals[name]!, q) < 1e-9, 'the soft finding holds');
      }
    }
    // A plain click afterwards: no finding is left in the kept tree.
    const plain = interactiveMarginals(net, { evidence: { [names[0]!]: net.variables[0]!.states[0]! } });
    assert.ok(!('error' in plain));
    const fresh = posteriorMarginals(randomNetwork(seed, 12, 3), new Map([[0, 0]]), { method: 'exact' });
    assert.ok(fresh.ok);
    names.forEach((name, i) => assert.ok(maxAbsDiff(plain.marginals[name]!, fresh.marginals[i]!) < 1e-12, name));
  }
});

test('a finding that rules out the evidence, or soft findings that cannot hold, are errors, not NaN', () => {
  const net = hubChain();
  const h = net.variables[0]!;
  const zeros = h.states.map(() => 0);
  const reply = interactiveMarginals(net, { evidence: {}, likelihoods: { [h.name]: zeros } });
  assert.ok('error' in reply && /zero for every state/.test(reply.error), JSON.stringify(reply));
  const other = net.variables[1]!;
  const both = interactiveMarginals(net, {
    evidence: { [other.name]: other.states[0]! },
    soft: { [other.name]: other.states.map((_, i) => (i === 0 ? 1 : 0)) },
  });
  assert.ok('error' in both && /observed/.test(both.error), JSON.stringify(both));
});
