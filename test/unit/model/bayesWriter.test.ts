import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeBayesNetwork } from '../../../server/src/model/bayesWriter.js';
import { checkText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { loadBif } from '../../support/networks.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';
import { readBif } from '../../../server/src/model/bif.js';
import { compileNetwork } from '../../../server/src/model/compileNetwork.js';
import { UnwritableNetworkError } from '../../../server/src/model/networkText.js';
import { MAX_MODEL_CHARS } from '../../../server/src/language/parse.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const env = nodeEnvironment({
  documentPath: join(repoRoot, 'converted.bayes'),
  workspaceRoot: repoRoot,
  dataRoots: [],
});

for (const name of ['asia', 'child', 'alarm', 'insurance']) {
  test(`${name}.bif written as .bayes parses and checks without a diagnostic`, (t) => {
    const net = loadBif(name);
    if (!net) return t.skip(NO_SHARED);
    const text = writeBayesNetwork(net);
    const { diagnostics } = checkText(text, env);
    assert.deepEqual(
      diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`),
      [],
    );
    // The checker is not lenient: drop one CPT row and it must say so.
    const lines = text.split('\n');
    const row = lines.findIndex((l) => /^ {4}\S.*: \{/.test(l));
    const broken = checkText([...lines.slice(0, row), ...lines.slice(row + 1)].join('\n'), env).diagnostics;
    assert.ok(
      broken.some((d) => /no row for/.test(d.message)),
      'a missing row is reported',
    );
  });
}

test('names that are not identifiers are quoted; unknown tables become Dirichlet(1) priors', () => {
  const net = {
    name: 'odd net',
    variables: [
      { name: 'Age', states: ['0-3_days', '12+'] },
      { name: 'B', states: ['x', 'y'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.75, 0.25) },
      { child: 1, parents: [0], table: new Float64Array(4).fill(NaN) },
    ],
  };
  const text = writeBayesNetwork(net);
  assert.equal(
    text,
    'network odd_net {\n  variable Age { "0-3_days", "12+" }\n  variable B { x, y }\n  P(Age) { "0-3_days": 0.75, "12+": 0.25 }\n  P(B | Age) ~ Dirichlet(1)\n}\n',
  );
  // The network's name is spelled as a name (`network "odd net"` did not parse).
  assert.deepEqual(checkText(text, env).diagnostics, []);
  // A variable's name cannot be quoted or changed: such a network is refused, not written unreadable.
  assert.throws(
    () => writeBayesNetwork({ ...net, variables: [net.variables[0]!, { name: 'B-1', states: ['x', 'y'] }] }),
    (e: Error) => e instanceof UnwritableNetworkError && /'B-1' cannot be written/.test(e.message),
  );
  net.cpts[1]!.table[0] = 0.5;
  assert.throws(() => writeBayesNetwork(net), /P\(B \| …\) is only partly known/);
});

test('the EM assignment network with unknown CPTs (alarm-em/alarm.bif) converts to a checked .bayes', (t) => {
  const path = sharedFile('tables', 'alarm-em', 'alarm.bif');
  if (!path) return t.skip(NO_SHARED);
  const r = readBif(readFileSync(path, 'utf8'));
  assert.ok('network' in r);
  const text = writeBayesNetwork({ ...r.network, name: 'AlarmEm' });
  assert.equal(text.match(/~ Dirichlet\(1\)/g)?.length, r.network.variables.length);
  assert.deepEqual(checkText(text, env).diagnostics, []);
});

test('a large table is written a list per row, and reads back entry for entry', () => {
  // C has 20 states and 64 parent rows (1280 entries): keyed by state, every entry repeated a state name.
  const states = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const net = {
    name: 'wide',
    variables: [
      { name: 'A', states: states('a', 4) },
      { name: 'B', states: states('b', 4) },
      { name: 'D', states: states('d', 4) },
      { name: 'C', states: ['0-1', ...states('c', 19)] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.1, 0.2, 0.3, 0.4) },
      { child: 1, parents: [], table: Float64Array.of(0.25, 0.25, 0.25, 0.25) },
      { child: 2, parents: [], table: Float64Array.of(0.4, 0.3, 0.2, 0.1) },
      {
        child: 3,
        parents: [0, 1, 2],
        table: Float64Array.from(
          { length: 64 * 20 },
          (_, i) => ((i % 20) + 1 + Math.floor(i / 20)) / (210 + 20 * Math.floor(i / 20)),
        ),
      },
    ],
  };
  const text = writeBayesNetwork(net);
  assert.match(text, /\n {4}a0, b0, d0: \[0\.004761904761904762, /);
  assert.doesNotMatch(text, /"0-1": /);
  const checked = checkText(text, env);
  assert.deepEqual(checked.diagnostics, []);
  const back = compileNetwork(checked.parse.ast, checked.symbols, env, 'wide');
  assert.deepEqual(back.variables, net.variables);
  assert.deepEqual(
    back.cpts.map((c) => [c.parents, Array.from(c.table)]),
    net.cpts.map((c) => [c.parents, Array.from(c.table)]),
  );
});

test('mildew.bif as .bayes fits the size a model may have; a network that cannot is refused, not written', (t) => {
  // Keyed by state, mildew's 5.3 MB BIF became a 9.9 MB .bayes that `bayes run` and `bayes marginals` refused.
  const net = loadBif('mildew');
  if (!net) return t.skip(NO_SHARED);
  assert.ok(writeBayesNetwork(net).length <= MAX_MODEL_CHARS);
  const huge = {
    name: 'huge',
    variables: [
      { name: 'A', states: Array.from({ length: 1000 }, (_, i) => `a${i}`) },
      { name: 'B', states: Array.from({ length: 1500 }, (_, i) => `b${i}`) },
    ],
    cpts: [
      { child: 0, parents: [], table: new Float64Array(1000).fill(0.001) },
      { child: 1, parents: [0], table: new Float64Array(1.5e6).fill(0.001) }, // about 10 MB of text
    ],
  };
  assert.throws(() => writeBayesNetwork(huge), UnwritableNetworkError);
});
