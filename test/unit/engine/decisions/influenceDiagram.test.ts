import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { createRng } from '../../../../server/src/engine/random.js';
import {
  descendants,
  expectedUtilities,
  solveInfluenceDiagram,
  valueOfInformation,
  type InfluenceDiagram,
} from '../../../../server/src/engine/decisions/influenceDiagram.js';
import { randomRows } from '../../../support/networks.js';

/**
 * A random influence diagram: nodes in a random temporal order, `decisions` of them decisions.
 * Chance nodes condition on up to 3 earlier nodes (decisions included); a decision observes up
 * to 2 earlier chance nodes; 1–3 utility nodes over up to 3 variables. Rejected (undefined) when
 * brute force would have too many strategies or too large a joint.
 */
function randomDiagram(
  seed: number,
  chance: number,
  decisionCount: number,
  zeros: boolean,
): InfluenceDiagram | undefined {
  const rng = createRng(seed);
  const n = chance + decisionCount;
  const decisionAt = new Set(rng.shuffle(Array.from({ length: n - 1 }, (_, i) => i + 1)).slice(0, decisionCount));
  const variables = Array.from({ length: n }, (_, i) => ({
    name: decisionAt.has(i) ? `D${i}` : `C${i}`,
    states: Array.from({ length: 2 + (rng.next() < 0.25 ? 1 : 0) }, (_, s) => `s${s}`),
  }));
  const net: BayesianNetwork = { name: `id${seed}`, variables, cpts: [] };
  const decisions: InfluenceDiagram['decisions'] = [];
  for (let i = 0; i < n; i++) {
    const k = variables[i]!.states.length;
    if (decisionAt.has(i)) {
      const earlierChance = Array.from({ length: i }, (_, j) => j).filter((j) => !decisionAt.has(j));
      decisions.push({
        variable: i,
        information: rng
          .shuffle(earlierChance)
          .slice(0, rng.int(3))
          .sort((a, b) => a - b),
      });
      net.cpts.push({ child: i, parents: [], table: new Float64Array(k).fill(1 / k) });
      continue;
    }
    const parents = rng
      .shuffle(Array.from({ length: i }, (_, j) => j))
      .slice(0, rng.int(Math.min(3, i) + 1))
      .sort((a, b) => a - b);
    const rows = parents.reduce((r, p) => r * variables[p]!.states.length, 1);
    const table = randomRows(rng, rows, k, zeros);
    net.cpts.push({ child: i, parents, table });
  }
  const utilities = Array.from({ length: 1 + rng.int(3) }, (_, u) => {
    const parents = rng
      .shuffle(Array.from({ length: n }, (_, j) => j))
      .slice(0, 1 + rng.int(3))
      .sort((a, b) => a - b);
    const size = parents.reduce((r, p) => r * variables[p]!.states.length, 1);
    return {
      name: `U${u}`,
      parents,
      table: Float64Array.from({ length: size }, () => Math.round(rng.next() * 2000 - 1000) / 10),
    };
  });
  const id: InfluenceDiagram = { name: net.name, network: net, decisions, utilities };
  const joint = variables.reduce((s, v) => s * v.states.length, 1);
  if (joint > 1 << 16 || strategyCount(id) > 1 << 16) return undefined;
  return id;
}

/** The chance variables each decision knows (no-forgetting), in brute force's terms. */
function chanceSets(id: InfluenceDiagram): number[][] {
  // No-forgetting, written out here rather than taken from the engine: decision k knows what
  // decisions 0…k were declared to know (the decisions themselves follow from the strategy).
  const decisionVars = new Set(id.decisions.map((d) => d.variable));
  return id.decisions.map((_, k) => {
    const known = new Set(id.decisions.slice(0, k + 1).flatMap((d) => d.information));
    return [...known].filter((v) => !decisionVars.has(v)).sort((a, b) => a - b);
  });
}

function strategyCount(id: InfluenceDiagram): number {
  const sets = chanceSets(id);
  return id.decisions.reduce((n, d, k) => {
    const contexts = sets[k]!.reduce((c, v) => c * id.network.variables[v]!.states.length, 1);
    return n * id.network.variables[d.variable]!.states.length ** contexts;
  }, 1);
}

interface BruteForce {
  /** Expected utility (given the evidence) of every strategy, strategies in enumeration order. */
  eu: Float64Array;
  pEvidence: number;
  /** The strategy of an index: per decision, its alternative per context of its chance set. */
  strategy(index: number): number[][];
  /** The index of a strategy. */
  indexOf(strategy: number[][]): number;
  /** Σ_x P(x | decisions) U(x, decisions) with the decisions given by the strategy, for e's worlds. */
}

/**
 * Brute force by definition: a strategy maps, for each decision, every assignment of the chance
 * variables it knows to an alternative (earlier decisions are functions of those); its expected
 * utility sums P(x | decisions) Σ U over every joint state x of the chance variables.
 */
function bruteForce(id: InfluenceDiagram, evidence: ReadonlyMap<number, number> = new Map()): BruteForce {
  const net = id.network;
  const n = net.variables.length;
  const cards = net.variables.map((v) => v.states.length);
  const decisionVars = id.decisions.map((d) => d.variable);
  const sets = chanceSets(id);
  const known = [...new Set(sets.flat())].sort((a, b) => a - b);
  const knownCards = known.map((v) => cards[v]!);
  const knownSize = knownCards.reduce((a, b) => a * b, 1);
  const decisionSize = decisionVars.reduce((a, v) => a * cards[v]!, 1);
  // W[s, d] = Σ over the joint states x agreeing with s (and the evidence) of P(x | d) Σ U(x, d).
  const W = new Float64Array(knownSize * decisionSize);
  const P = new Float64Array(knownSize * decisionSize);
  const x = new Array<number>(n).fill(0);
  const total = cards.reduce((a, b) => a * b, 1);
  for (let i = 0; i < total; i++) {
    let rest = i;
    for (let v = n - 1; v >= 0; v--) {
      x[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
    if ([...evidence].some(([v, s]) => x[v] !== s)) continue;
    let p = 1;
    for (const cpt of net.cpts) {
      if (decisionVars.includes(cpt.child)) continue;
      let row = 0;
      for (const u of cpt.parents) row = row * cards[u]! + x[u]!;
      p *= cpt.table[row * cards[cpt.child]! + x[cpt.child]!]!;
    }
    let u = 0;
    for (const util of id.utilities) {
      let at = 0;
      for (const v of util.parents) at = at * cards[v]! + x[v]!;
      u += util.table[at]!;
    }
    const s = known.reduce((a, v) => a * cards[v]! + x[v]!, 0);
    const d = decisionVars.reduce((a, v) => a * cards[v]! + x[v]!, 0);
    W[s * decisionSize + d]! += p * u;
    P[s * decisionSize + d]! += p;
  }
  const contextCount = sets.map((set) => set.reduce((c, v) => c * cards[v]!, 1));
  const sizes = id.decisions.map((d, k) => cards[d.variable]! ** contextCount[k]!);
  const strategy = (index: number): number[][] =>
    id.decisions.map((d, k) => {
      let rest = index;
      for (let j = 0; j < k; j++) rest = Math.floor(rest / sizes[j]!);
      rest %= sizes[k]!;
      return Array.from({ length: contextCount[k]! }, () => {
        const a = rest % cards[d.variable]!;
        rest = Math.floor(rest / cards[d.variable]!);
        return a;
      });
    });
  const indexOf = (st: number[][]): number => {
    let index = 0;
    for (let k = id.decisions.length - 1; k >= 0; k--) {
      let local = 0;
      for (let c = st[k]!.length - 1; c >= 0; c--) local = local * cards[id.decisions[k]!.variable]! + st[k]![c]!;
      index = index * sizes[k]! + local;
    }
    return index;
  };
  const count = sizes.reduce((a, b) => a * b, 1);
  // P(e) does not depend on the decisions when the evidence is known before them.
  let pEvidence = 0;
  for (let s = 0; s < knownSize; s++) pEvidence += P[s * decisionSize]!;
  const eu = new Float64Array(count);
  const ks = new Array<number>(known.length).fill(0);
  for (let index = 0; index < count; index++) {
    const st = strategy(index);
    let sum = 0;
    for (let s = 0; s < knownSize; s++) {
      let rest = s;
      for (let j = known.length - 1; j >= 0; j--) {
        ks[j] = rest % knownCards[j]!;
        rest = Math.floor(rest / knownCards[j]!);
      }
      let d = 0;
      id.decisions.forEach((dec, k) => {
        const c = sets[k]!.reduce((a, v) => a * cards[v]! + ks[known.indexOf(v)]!, 0);
        d = d * cards[dec.variable]! + st[k]![c]!;
      });
      sum += W[s * decisionSize + d]!;
    }
    eu[index] = sum / pEvidence;
  }
  return { eu, pEvidence, strategy, indexOf };
}

/** Our rules as a brute-force strategy: earlier decisions in a context follow the earlier rules. */
function strategyOfRules(id: InfluenceDiagram, rules: ReturnType<typeof solveInfluenceDiagram>['rules']): number[][] {
  const cards = id.network.variables.map((v) => v.states.length);
  const sets = chanceSets(id);
  const known = [...new Set(sets.flat())].sort((a, b) => a - b);
  return id.decisions.map((d, k) => {
    const count = sets[k]!.reduce((c, v) => c * cards[v]!, 1);
    return Array.from({ length: count }, (_, c) => {
      const value = new Map<number, number>();
      let rest = c;
      for (let j = sets[k]!.length - 1; j >= 0; j--) {
        value.set(sets[k]![j]!, rest % cards[sets[k]![j]!]!);
        rest = Math.floor(rest / cards[sets[k]![j]!]!);
      }
      void known;
      let choice = 0;
      for (let j = 0; j <= k; j++) {
        const rule = rules[j]!;
        const row = rule.context.reduce((a, v) => a * cards[v]! + value.get(v)!, 0);
        choice = rule.choice[row]!;
        value.set(id.decisions[j]!.variable, choice);
      }
      return choice;
    });
  });
}

function max(values: Float64Array): number {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

test('random influence diagrams: MEU and optimal rules equal brute-force enumeration of all strategies', () => {
  let solved = 0,
    decisionsSeen = 0,
    maxStrategies = 0;
  for (let seed = 1; solved < 40; seed++) {
    const id = randomDiagram(seed, 4 + (seed % 9), 1 + (seed % 3), seed % 4 === 0);
    if (!id) continue;
    solved++;
    decisionsSeen = Math.max(decisionsSeen, id.decisions.length);
    const brute = bruteForce(id);
    maxStrategies = Math.max(maxStrategies, brute.eu.length);
    const best = max(brute.eu);
    const solution = solveInfluenceDiagram(id);
    assert.ok(Math.abs(solution.meu - best) < 1e-9, `seed ${seed}: MEU ${solution.meu} vs brute force ${best}`);
    // The rules, played as a strategy, reach the maximum.
    const ours = brute.eu[brute.indexOf(strategyOfRules(id, solution.rules))]!;
    assert.ok(Math.abs(ours - best) < 1e-9, `seed ${seed}: the rules' EU ${ours} vs ${best}`);
    // Committing each decision to one alternative whatever it learns: the best such strategy.
    id.decisions.forEach((d, k) => {
      const eu = expectedUtilities(id, d.variable);
      for (let a = 0; a < eu.length; a++) {
        let bestFixed = -Infinity;
        for (let i = 0; i < brute.eu.length; i++)
          if (brute.strategy(i)[k]!.every((c) => c === a)) bestFixed = Math.max(bestFixed, brute.eu[i]!);
        assert.ok(
          Math.abs(eu[a]! - bestFixed) < 1e-9,
          `seed ${seed}: EU(${id.network.variables[d.variable]!.name} = ${a}) ${eu[a]} vs ${bestFixed}`,
        );
      }
    });
    // Each rule's table: the choice is the best alternative of its row, and Σ P(row) max EU = MEU
    // over the rows whose earlier decisions follow the earlier rules.
    const cards = id.network.variables.map((v) => v.states.length);
    solution.rules.forEach((rule, k) => {
      if (!rule.expectedUtility) return;
      const alternatives = cards[rule.decision]!;
      let total = 0;
      for (let r = 0; r < rule.choice.length; r++) {
        const row = rule.expectedUtility.subarray(r * alternatives, (r + 1) * alternatives);
        if (Number.isNaN(row[0]!)) continue;
        assert.ok(
          Math.abs(row[rule.choice[r]!]! - Math.max(...row)) < 1e-9,
          `seed ${seed}: rule ${k} row ${r} is not the best alternative`,
        );
        const value = new Map<number, number>();
        let rest = r;
        for (let j = rule.context.length - 1; j >= 0; j--) {
          value.set(rule.context[j]!, rest % cards[rule.context[j]!]!);
          rest = Math.floor(rest / cards[rule.context[j]!]!);
        }
        const follows = solution.rules.slice(0, k).every((earlier) => {
          const at = earlier.context.reduce((a, v) => a * cards[v]! + value.get(v)!, 0);
          return earlier.choice[at] === value.get(earlier.decision);
        });
        if (follows) total += rule.probability![r]! * row[rule.choice[r]!]!;
      }
      assert.ok(
        Math.abs(total - solution.meu) < 1e-9,
        `seed ${seed}: rule ${k}: Σ P(row) EU = ${total}, MEU ${solution.meu}`,
      );
    });
  }
  assert.equal(decisionsSeen, 3);
  assert.ok(maxStrategies > 1000, `the largest case enumerated only ${maxStrategies} strategies`);
});

test('random influence diagrams with evidence and value of information match brute force', () => {
  let checked = 0;
  for (let seed = 500; checked < 30; seed++) {
    const id = randomDiagram(seed, 4 + (seed % 8), 1 + (seed % 3), false);
    if (!id) continue;
    const net = id.network;
    const influenced = new Set(id.decisions.flatMap((d) => [...descendants(net, d.variable)]));
    const decisionVars = new Set(id.decisions.map((d) => d.variable));
    const candidates = net.variables.map((_, v) => v).filter((v) => !influenced.has(v) && !decisionVars.has(v));
    if (candidates.length === 0) continue;
    const last = id.decisions[id.decisions.length - 1]!;
    const y = candidates[(seed + 1) % candidates.length]!;
    const informed: InfluenceDiagram = {
      ...id,
      decisions: id.decisions.map((d) =>
        d === last && !d.information.includes(y) ? { ...d, information: [...d.information, y] } : d,
      ),
    };
    if (strategyCount(informed) > 1 << 16) continue;
    checked++;
    const x = candidates[seed % candidates.length]!;
    const evidence = new Map([[x, seed % net.variables[x]!.states.length]]);
    const brute = bruteForce(id, evidence);
    const solution = solveInfluenceDiagram(id, evidence);
    assert.ok(
      Math.abs(solution.meu - max(brute.eu)) < 1e-9,
      `seed ${seed}: MEU given evidence ${solution.meu} vs ${max(brute.eu)}`,
    );
    assert.ok(Math.abs(solution.evidenceProbability - brute.pEvidence) < 1e-12, `seed ${seed}: P(e)`);
    // VOI of a chance variable no decision influences, before the last decision.
    const { voi } = valueOfInformation(id, y, last.variable);
    const expected = max(bruteForce(informed).eu) - max(bruteForce(id).eu);
    assert.ok(Math.abs(voi - expected) < 1e-9, `seed ${seed}: VOI ${voi} vs ${expected}`);
    assert.ok(voi >= -1e-9, `seed ${seed}: information cannot hurt (VOI ${voi})`);
  }
});

/** Raiffa's oil wildcatter (Raiffa 1968; the figures of the issue), built directly. */
function wildcatter(withTest: boolean): InfluenceDiagram {
  const variables = [
    { name: 'Oil', states: ['dry', 'wet', 'soaking'] },
    { name: 'Test', states: ['yes', 'no'] },
    { name: 'Seismic', states: ['none', 'closed', 'open', 'diffuse'] },
    { name: 'Drill', states: ['yes', 'no'] },
  ];
  // P(Seismic | Oil, Test): no test gives no result.
  const seismic = [
    [0, 0.1, 0.3, 0.6],
    [1, 0, 0, 0],
    [0, 0.3, 0.4, 0.3],
    [1, 0, 0, 0],
    [0, 0.5, 0.4, 0.1],
    [1, 0, 0, 0],
  ].flat();
  const net: BayesianNetwork = {
    name: 'wildcatter',
    variables,
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.3, 0.2) },
      { child: 1, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 2, parents: [0, 1], table: Float64Array.from(seismic) },
      { child: 3, parents: [], table: Float64Array.of(0.5, 0.5) },
    ],
  };
  const decisions = withTest
    ? [
        { variable: 1, information: [] },
        { variable: 3, information: [2] },
      ]
    : [{ variable: 3, information: [] }];
  const utilities = [{ name: 'Payoff', parents: [3, 0], table: Float64Array.of(-70, 50, 200, 0, 0, 0) }];
  if (withTest) utilities.push({ name: 'Cost', parents: [1], table: Float64Array.of(-10, 0) });
  return { name: 'wildcatter', network: net, decisions, utilities };
}

test("Raiffa's wildcatter: test, drill unless diffuse (no structure), MEU 22.5; 20 untested; EVPI 35", () => {
  const id = wildcatter(true);
  const solution = solveInfluenceDiagram(id);
  assert.ok(Math.abs(solution.meu - 22.5) < 1e-12, `MEU ${solution.meu}`);
  const [test1, drill] = solution.rules;
  assert.deepEqual([...test1!.choice], [0]);
  // Drill's context: Test, Seismic (Test slowest). After testing: drill unless diffuse.
  assert.deepEqual(drill!.context, [1, 2]);
  assert.deepEqual([...drill!.choice.subarray(1, 4)], [0, 0, 1]);
  // EU(drill | tested, open) = (0.5·0.3·−70 + 0.3·0.4·50 + 0.2·0.4·200) / 0.35 − 10 = 11.5/0.35 − 10.
  assert.ok(Math.abs(drill!.expectedUtility![2 * 2] - (11.5 / 0.35 - 10)) < 1e-12);
  assert.ok(Math.abs(drill!.probability![2] - 0.35) < 1e-12);
  assert.ok(Math.abs(drill!.probability![3] - 0.41) < 1e-12);
  const eu = expectedUtilities(id, 1);
  assert.ok(Math.abs(eu[0]! - 22.5) < 1e-12 && Math.abs(eu[1]! - 20) < 1e-12, `EU(Test) ${eu}`);
  const noTest = wildcatter(false);
  assert.ok(Math.abs(solveInfluenceDiagram(noTest).meu - 20) < 1e-12);
  const { voi } = valueOfInformation(noTest, 0, 3);
  assert.ok(Math.abs(voi - 35) < 1e-12, `EVPI ${voi}`);
  // With the test available, knowing Oil at the drill is worth 55 − 22.5.
  assert.ok(Math.abs(valueOfInformation(id, 0, 3).voi - 32.5) < 1e-12);
});

test('ill-formed diagrams and evidence are refused with a reason', () => {
  const id = wildcatter(true);
  // Seismic depends on Test: it cannot be known before Test.
  const early: InfluenceDiagram = {
    ...id,
    decisions: [
      { variable: 1, information: [2] },
      { variable: 3, information: [] },
    ],
  };
  assert.throws(() => solveInfluenceDiagram(early), /'Test' cannot know 'Seismic': it depends on decision 'Test'/);
  assert.throws(() => solveInfluenceDiagram(id, new Map([[2, 1]])), /'Seismic' depends on decision 'Test'/);
  const knowsLater: InfluenceDiagram = {
    ...id,
    decisions: [
      { variable: 1, information: [3] },
      { variable: 3, information: [2] },
    ],
  };
  assert.throws(() => solveInfluenceDiagram(knowsLater), /'Test' cannot know 'Drill', which is decided later/);
  assert.ok(
    Math.abs(
      solveInfluenceDiagram(
        id,
        new Map([
          [1, 0],
          [2, 3],
        ]),
      ).meu - -10,
    ) < 1e-12,
  );
  assert.throws(
    () =>
      solveInfluenceDiagram(
        id,
        new Map([
          [1, 1],
          [2, 2],
        ]),
      ),
    /evidence has probability 0/,
  );
  assert.throws(() => solveInfluenceDiagram(id, undefined, { budget: 2 }), /over the budget of 2/);
});

test('utilities that can add past 1.8e308 are refused, not answered with MEU Infinity', () => {
  const id = wildcatter(true);
  const huge: InfluenceDiagram = {
    ...id,
    utilities: [
      { name: 'Payoff', parents: [3, 0], table: Float64Array.of(1e308, 50, 200, 0, 0, 0) },
      { name: 'Cost', parents: [1], table: Float64Array.of(1e308, 0) },
    ],
  };
  assert.throws(() => solveInfluenceDiagram(huge), {
    message: 'the utilities together can exceed 1.8e308 in magnitude: rescale them (e.g. to thousands)',
  });
  // One table of 1e308 alone cannot overflow an expectation: still solved.
  const one: InfluenceDiagram = {
    ...id,
    utilities: [{ ...huge.utilities[0]!, table: Float64Array.of(1e308, 0, 0, 0, 0, 0) }],
  };
  assert.ok(Number.isFinite(solveInfluenceDiagram(one).meu));
});
