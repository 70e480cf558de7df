import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BudgetError,
  budgetsFor,
  DEFAULT_BUDGETS,
  requireWithin,
  tableEntries,
} from '../../../server/src/engine/budget.js';
import {
  JunctionTree,
  familiesOf,
  junctionTreeLayout,
  junctionTreeOrder,
  junctionTreeSize,
} from '../../../server/src/engine/inference/junctionTree.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';

test('budgets follow the memory limit: a table a sixteenth of it, a structure a quarter, in 8-byte entries', () => {
  const b = budgetsFor(2048);
  assert.equal(b.maxTableEntries, (2048 * 2 ** 20) / 8 / 16);
  assert.equal(b.maxTotalEntries, (2048 * 2 ** 20) / 8 / 4);
  assert.deepEqual(DEFAULT_BUDGETS, b);
  assert.equal(tableEntries([10, 10, 2]), 200);
  assert.equal(tableEntries(Array(400).fill(10)), Infinity);
});

test('requireWithin names what, the size and the budget; at the budget is allowed', () => {
  requireWithin('x', 100, 100);
  assert.throws(
    () => requireWithin("the table of 'C'", 200_000_000, 16_777_216),
    (e: Error) =>
      e instanceof BudgetError &&
      e.message === "the table of 'C' needs 200,000,000 entries, over the budget of 16,777,216",
  );
  assert.throws(() => requireWithin('t', Infinity, 10), /more than 10\^308/);
  assert.throws(() => requireWithin('t', 2e15, 10), /2\.00 × 10\^15/);
});

test('a junction tree over its budget is refused before its cliques are allocated', () => {
  // Sixteen binary parents of one child: one clique of 2^17 entries.
  const parents = Array.from({ length: 16 }, (_, i) => i);
  const net: BayesianNetwork = {
    name: 'wide',
    variables: [...parents, 16].map((i) => ({ name: `V${i}`, states: ['a', 'b'] })),
    cpts: [
      ...parents.map((i) => ({ child: i, parents: [], table: Float64Array.of(0.5, 0.5) })),
      { child: 16, parents, table: new Float64Array(2 ** 17).fill(0.5) },
    ],
  };
  const order = junctionTreeOrder(net);
  // The check uses the tree's own cliques (the maximal ones), sized before anything is allocated.
  const cards = net.variables.map((v) => v.states.length);
  const size = junctionTreeSize(junctionTreeLayout(order, cards, familiesOf(net)), cards).entries;
  assert.ok(size >= 2 ** 17 && size <= order.totalSize);
  const message = `the junction tree needs ${size.toLocaleString('en-US')} clique entries, over the budget of 65,536`;
  assert.throws(
    () => JunctionTree.compile(net, { maxEntries: 2 ** 16 }),
    (e: Error) => e instanceof BudgetError && e.message === message,
  );
  assert.throws(() => JunctionTree.compile(net, { maxEntries: size - 1 }), BudgetError);
  assert.equal(JunctionTree.compile(net, { maxEntries: size }).totalSize, size);
});
