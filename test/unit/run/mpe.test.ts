/** `query mpe`: the argmax of the joint found by enumerating every assignment. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jointTable } from '../../support/networks.js';
import { close } from '../../support/close.js';
import { assertNoErrors, example, expectations, networkOf, resultsOf, run } from './networkHelpers.js';

const forest = example('forest');

/** argmax_x P(x) over assignments with `fixed` variables at their states, by brute force. */
function bruteForceMpe(
  text: string,
  scope: string,
  fixed: Record<string, string>,
): { assignment: Record<string, string>; p: number } {
  const net = networkOf(text, scope);
  const { cards, values } = jointTable(net);
  let best = -1,
    bestP = -1;
  for (let i = 0; i < values.length; i++) {
    let rest = i,
      ok = true;
    for (let v = cards.length - 1; v >= 0; v--) {
      const s = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
      const want = fixed[net.variables[v]!.name];
      if (want !== undefined && net.variables[v]!.states[s] !== want) ok = false;
    }
    if (ok && values[i]! > bestP) {
      best = i;
      bestP = values[i]!;
    }
  }
  const states: string[] = [];
  for (let v = cards.length - 1, rest = best; v >= 0; v--) {
    states[v] = net.variables[v]!.states[rest % cards[v]!]!;
    rest = Math.floor(rest / cards[v]!);
  }
  const assignment: Record<string, string> = {};
  net.variables.forEach((v, i) => {
    if (fixed[v.name] === undefined) assignment[v.name] = states[i]!;
  });
  return { assignment, p: bestP };
}

test('Forest given Thunder = true: the assignment and P(x*, e) of enumeration', async () => {
  const truth = bruteForceMpe(forest, 'Forest', { Thunder: 'true' });
  const result = await run(forest);
  const [mpe] = resultsOf(result, 'mpe');
  assert.deepEqual(mpe!.assignment, truth.assignment);
  close(mpe!.probability, truth.p, 1e-15);
  close(mpe!.logProbability, Math.log(truth.p), 1e-12);
  assert.deepEqual(mpe!.evidence, { Thunder: 'true' });
  assert.equal(mpe!.network, 'Forest');
});

test('expect mpe compares the assignment written as text', async () => {
  const truth = bruteForceMpe(forest, 'Forest', { Thunder: 'false', Storm: 'true' });
  const text = Object.entries(truth.assignment)
    .map(([v, s]) => `${v} = ${s}`)
    .join(', ');
  const result = await run(`${forest}\nexpect mpe Forest given Thunder = false, Storm = true = "${text}"`);
  assertNoErrors(result);
  assert.equal(expectations(result).at(-1)!.passed, true);
  assert.equal(expectations(result).at(-1)!.actual, text);
});

test("a classifier answers mpe as a network: PlayNB picks No for Mitchell's new day", async () => {
  const result = await run(
    `${example('playtennis')}\nquery mpe PlayNB given Outlook = Sunny, Temperature = Cool, Humidity = High, Wind = Strong`,
  );
  const mpe = resultsOf(result, 'mpe').at(-1)!;
  assert.deepEqual(mpe.assignment, { Play: 'No' });
  close(mpe.probability, (5 / 14) * (3 / 5) * (1 / 5) * (4 / 5) * (3 / 5), 1e-15);
});

test('impossible evidence and unknown states are diagnostics', async () => {
  const model = `network Z {\n  variable A, B : bool\n  P(A) = 1\n  P(B | A) { true: 0.5, false: 0.5 }\n}\n`;
  const result = await run(`${model}query mpe Z given A = false`);
  const d = result.diagnostics.find((x) => x.code === 'evidence-impossible')!;
  assert.equal(d.message, 'evidence has probability 0');
  assert.equal(d.range.start.line, 5);
  const unknown = await run(`${example('cancer')}\nquery mpe Nowhere`);
  assert.ok(unknown.diagnostics.some((x) => x.severity === 'error' && /Nowhere/.test(x.message)));
});

test('a network with unknown entries is refused with the reason, not explained', async () => {
  const result = await run(
    'network N {\n  variable A, B : bool\n  P(A) = 0.5\n  P(B | A) { true: 0.9 }\n}\nquery mpe N\nquery sensitivity P(B = true) in N\n',
  );
  const refused = result.diagnostics.filter((d) => d.code === 'engine-error');
  assert.deepEqual(
    refused.map((d) => d.range.start.line),
    [5, 6],
  );
  assert.ok(
    refused.every((d) => /P\(B \| …\) has unknown entries/.test(d.message)),
    JSON.stringify(refused),
  );
});
