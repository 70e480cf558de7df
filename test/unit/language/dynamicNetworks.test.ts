import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, r } from './helpers.js';
import { completion } from '../../../server/src/features/completion.js';
import { parseDocument } from '../../../server/src/language/index.js';

const head = `network Umbrella {
  variable Rain { yes, no }
  variable Umbrella { yes, no }
`;
const rain0 = '  P(Rain[0]) { yes: 0.5, no: 0.5 }\n';
const rainT = '  P(Rain[t] | Rain[t-1]) { yes: { yes: 0.7, no: 0.3 }, no: { yes: 0.3, no: 0.7 } }\n';
const umbrellaT = '  P(Umbrella[t] | Rain[t]) { yes: { yes: 0.9, no: 0.1 }, no: { yes: 0.2, no: 0.8 } }\n';

function errors(text: string): { code: string; message: string; range: unknown }[] {
  return diagnose(text)
    .filter((d) => d.severity === 'error')
    .map((d) => ({ code: String(d.code), message: d.message, range: d.range }));
}

test('a network over time with an initial and a transition table per variable checks clean', () => {
  assert.deepEqual(errors(head + rain0 + rainT + umbrellaT + '}\n'), []);
});

test('a missing table at t and a missing table at 0 are errors on the variable', () => {
  const noTransition = errors(head + rain0 + rainT + '}\n');
  assert.deepEqual(noTransition, [
    { code: 'missing-table', message: "'Umbrella' has no table at t: give P(Umbrella[t] | …)", range: r(2, 11, 2, 19) },
  ]);
  const noInitial = errors(head + rainT + umbrellaT + '}\n');
  assert.deepEqual(noInitial, [
    {
      code: 'missing-table',
      message: "'Rain' has no table at 0: give P(Rain[0] | …) (its table at t conditions on t-1)",
      range: r(1, 11, 1, 15),
    },
  ]);
});

test('a continuous variable in a network over time with discrete ones (a switching model) is an error on its declaration', () => {
  const gaussian = errors(
    head.replace('variable Umbrella { yes, no }', 'variable Umbrella : real') +
      rain0 +
      rainT +
      '  P(Umbrella[t] | Rain[t]) { yes: Normal(mean: 1, variance: 1), no: Normal(mean: 0, variance: 1) }\n}\n',
  );
  assert.deepEqual(gaussian, [
    {
      code: 'mixed-time',
      message:
        "'Umbrella' is continuous and the network over time also has discrete variables: mixed (switching) networks over time are not supported — exact inference is exponential in T; make every variable 'real' (a Gaussian slice) or give it states",
      range: r(2, 11, 2, 19),
    },
  ]);
});

test('arcs from the future, higher orders and fixed slices in a transition are errors on the index', () => {
  const future = errors(head + rain0 + rainT + '  P(Umbrella[t] | Rain[t+1]) { yes: [0.9, 0.1], no: [0.2, 0.8] }\n}\n');
  assert.deepEqual(future, [
    { code: 'time-arc', message: 'an arc from the future: Rain[t+1] cannot be a parent at t', range: r(5, 22, 5, 27) },
  ]);
  const second = errors(head + rain0 + rainT + '  P(Umbrella[t] | Rain[t-2]) { yes: [0.9, 0.1], no: [0.2, 0.8] }\n}\n');
  assert.equal(second[0]!.code, 'time-arc');
  assert.match(second[0]!.message, /only arcs from the previous slice/);
  assert.deepEqual(second[0]!.range, r(5, 22, 5, 27));
  const fixed = errors(head + rain0 + rainT + '  P(Umbrella[t] | Rain[0]) { yes: [0.9, 0.1], no: [0.2, 0.8] }\n}\n');
  assert.deepEqual(fixed[0]!.range, r(5, 22, 5, 25));
  const initialPast = errors(
    head + '  P(Rain[0] | Umbrella[t-1]) { yes: [0.5, 0.5], no: [0.5, 0.5] }\n' + rainT + umbrellaT + '}\n',
  );
  assert.ok(initialPast.some((e) => /slice 0 conditions on slice 0 only/.test(e.message)));
});

test('a name without its slice, and a variable not in the network, are errors on the name', () => {
  const plain = errors(head + rain0 + rainT + '  P(Umbrella[t] | Rain) { yes: [0.9, 0.1], no: [0.2, 0.8] }\n}\n');
  assert.deepEqual(plain[0], {
    code: 'time-index',
    message: "in a network over time, give the slice of 'Rain': Rain[t], Rain[t-1] or Rain[0]",
    range: r(5, 18, 5, 22),
  });
  const unknown = errors(
    head + rain0 + rainT + umbrellaT + '  P(Wind[t] | Rain[t]) { yes: [0.9, 0.1], no: [0.2, 0.8] }\n}\n',
  );
  assert.ok(
    unknown.some((e) => e.message.includes("'Wind'") && JSON.stringify(e.range) === JSON.stringify(r(6, 4, 6, 8))),
  );
});

test('a cycle inside a slice is an error; an arc from t-1 makes none', () => {
  const cyclic =
    head +
    rain0 +
    '  P(Rain[t] | Umbrella[t]) { yes: [0.7, 0.3], no: [0.3, 0.7] }\n' +
    umbrellaT +
    '  P(Umbrella[0]) { yes: 0.5, no: 0.5 }\n}\n';
  const found = errors(cyclic).filter((e) => e.code === 'cycle');
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /Rain\[t\] → Umbrella\[t\] → Rain\[t\]|Umbrella\[t\] → Rain\[t\] → Umbrella\[t\]/);
});

test('queries over time: one variable at a step with a state, and one data set', () => {
  const model = head + rain0 + rainT + umbrellaT + '}\ndata Days {\n  Umbrella\n  yes\n}\n';
  assert.deepEqual(errors(model + 'query P(Rain[1] = yes) in Umbrella using filtering given Days\n'), []);
  const noStep = errors(model + 'query P(Rain = yes) in Umbrella given Days\n');
  assert.deepEqual(noStep[0]!.range, r(11, 8, 11, 12));
  const method = errors(model + 'query P(Rain[1] = yes) in Umbrella using gibbs given Days\n');
  assert.match(method[0]!.message, /not a method over time/);
  const given = errors(model + 'query P(Rain[1] = yes) in Umbrella given Umbrella = yes\n');
  assert.match(given[0]!.message, /one data set/);
  const outside = errors('variable A { x, y }\nP(A) { x: 0.5, y: 0.5 }\nquery P(A[1] = x)\n');
  assert.deepEqual(outside[0]!.range, r(2, 9, 2, 12));
});

const tracking = `network Tracking {
  variable Position, Velocity, Reading : real
  P(Position[0]) ~ Normal(mean: 0, variance: 1)
  P(Velocity[0]) ~ Normal(mean: 1, variance: 0.25)
  P(Position[t] | Position[t-1], Velocity[t-1]) ~ Normal(mean: 0, Position[t-1]: 1, Velocity[t-1]: 1, variance: 0.01)
  P(Velocity[t] | Velocity[t-1]) ~ Normal(mean: 0, Velocity[t-1]: 1, variance: 0.01)
  P(Reading[t] | Position[t]) ~ Normal(mean: 0, Position[t]: 1, variance: 4)
}
`;

test('a network over time of real variables with linear Gaussian tables (coefficients keyed by the parent with its slice) checks clean', () => {
  assert.deepEqual(errors(tracking), []);
});

test('a Gaussian slice: a coefficient without its slice, one naming a slice that is not a parent, and the slice rules are errors on their ranges', () => {
  const bare = errors(
    tracking.replace('Velocity[t-1]: 1, variance: 0.01)\n  P(Reading', 'Velocity: 1, variance: 0.01)\n  P(Reading'),
  );
  assert.deepEqual(bare, [
    { code: 'arguments', message: "give the slice of the parent 'Velocity': Velocity[t-1]: b", range: r(5, 51, 5, 59) },
  ]);
  const wrongSlice = errors(tracking.replace('Position[t]: 1, variance: 4', 'Position[t-1]: 1, variance: 4'));
  assert.deepEqual(wrongSlice, [
    {
      code: 'arguments',
      message:
        "'Position[t-1]' is not a continuous parent of this table: a coefficient names a 'real' variable after '|'",
      range: r(6, 48, 6, 61),
    },
  ]);
  const future = errors(tracking.replace(/Position\[t\]\)(.*)Position\[t\]:/, 'Position[t+1])$1Position[t+1]:'));
  assert.deepEqual(future, [
    {
      code: 'time-arc',
      message: 'an arc from the future: Position[t+1] cannot be a parent at t',
      range: r(6, 25, 6, 30),
    },
  ]);
  const noInitial = errors(tracking.replace('  P(Velocity[0]) ~ Normal(mean: 1, variance: 0.25)\n', ''));
  assert.deepEqual(noInitial, [
    {
      code: 'missing-table',
      message: "'Velocity' has no table at 0: give P(Velocity[0] | …) (its table at t conditions on t-1)",
      range: r(1, 21, 1, 29),
    },
  ]);
});

test('completion inside a Gaussian slice’s Normal(: each continuous parent’s coefficient with its slice', () => {
  const text = `network Walk {
  variable X, Y : real
  P(X[0]) ~ Normal(mean: 0, variance: 1)
  P(Y[t] | X[t], Y[t-1]) ~
    Normal()
}
`;
  const items = completion(parseDocument(text).ast, text, { line: 4, character: 11 }).map((c) => c.insertText);
  assert.deepEqual(items, ['mean: ', 'variance: ', 'X[t]: ', 'Y[t-1]: ']);
});
