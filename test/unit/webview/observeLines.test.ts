/**
 * "Write evidence as observe lines" (webview/src/observeLines.ts, issue 28): the lines read back as
 * the same evidence. child.bif's state `0-3_days` is quoted (the run of the written lines equals
 * `bayes marginals -e Age=0-3_days`), quotes and backslashes are escaped, and a name holding a line
 * break — which would inject statements — is refused, not written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { observeLines, stateText } from '../../../webview/src/observeLines.js';
import { main } from '../../../server/src/cli.js';
import type { NetworkResult, RunResult } from '../../../server/src/protocol/runResult.js';
import { capture, tempFile } from '../../support/cli.js';
import { sharedFile } from '../../support/shared.js';

const none = { evidence: {}, likelihoods: {}, soft: {} };

async function run(args: string[]): Promise<unknown> {
  const io = capture();
  const code = await main(args, io);
  assert.equal(code, 0, io.stderr);
  return JSON.parse(io.stdout);
}

test("child.bif: Age = 0-3_days is written quoted, and the written lines give `bayes marginals`'s numbers", async (t) => {
  const bif = sharedFile('bif', 'child.bif');
  if (!bif) return t.skip('no child.bif in ../shared');
  const states = (v: string) => (v === 'Age' ? ['0-3_days', '4-10_days', '11-30_days'] : ['yes', 'no']);
  const written = observeLines(
    'Child',
    { evidence: { Age: '0-3_days' }, likelihoods: { Grunting: [0.9, 0.3] }, soft: {} },
    states,
  );
  assert.deepEqual(written, {
    lines: ['observe Age = "0-3_days" in Child', 'observe Grunting ~ likelihood { yes: 0.9, no: 0.3 } in Child'],
  });
  if (!('lines' in written)) return;
  const { file } = tempFile('child.bayes', `import network Child from "${bif}"\n${written.lines.join('\n')}\n`);
  const result = (await run(['run', '--json', file, '--data-root', dirname(bif)])) as RunResult;
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const net = result.results.find((r): r is NetworkResult => r.kind === 'network')!;
  const cli = (await run(['marginals', bif, '-e', 'Age=0-3_days', '--likelihood', 'Grunting=0.9,0.3', '--json'])) as {
    marginals: Record<string, Record<string, number>>;
  };
  assert.equal(net.variables.find((v) => v.name === 'Age')!.evidence, '0-3_days');
  for (const v of net.variables)
    v.states.forEach((s, i) =>
      assert.ok(Math.abs(v.marginal[i]! - cli.marginals[v.name]![s]!) < 1e-9, `${v.name}=${s}`),
    );
});

test('quotes and backslashes in a state are escaped and read back as the same state', async () => {
  const odd = 'say "hi" \\ 12+';
  assert.equal(stateText(odd), '"say \\"hi\\" \\\\ 12+"');
  assert.equal(stateText('plain_1'), 'plain_1');
  assert.equal(stateText('1st'), '"1st"');
  const written = observeLines('default', { ...none, evidence: { V: odd } }, () => [odd, 'other']);
  assert.ok('lines' in written);
  const model = `variable V { ${stateText(odd)}, other }\nP(V) = 0.25\n${written.lines.join('\n')}\nquery P(V)\n`;
  const { file } = tempFile('odd.bayes', model);
  const result = (await run(['run', '--json', file])) as RunResult;
  const net = result.results.find((r): r is NetworkResult => r.kind === 'network')!;
  assert.equal(net.variables[0]!.evidence, odd);
});

test('a state holding a line break, or a variable that is not a plain name, is refused with the reason', () => {
  const injected = 'x\nvariable Injected { a, b }';
  const hard = observeLines('Net', { ...none, evidence: { V: injected } }, () => [injected]);
  assert.deepEqual(hard, {
    error:
      'cannot write the evidence as observe lines: the state "x\\nvariable Injected { a, b }" holds a line break or control character',
  });
  const soft = observeLines('Net', { ...none, soft: { V: [0.5, 0.5] } }, () => ['a\u2028b', 'c']);
  assert.ok('error' in soft && /line break/.test(soft.error));
  const variable = observeLines('Net', { ...none, evidence: { 'my var': 'a' } }, () => ['a']);
  assert.ok('error' in variable && /the variable "my var" is not a plain name/.test(variable.error));
  const network = observeLines('a-b', { ...none, evidence: { V: 'a' } }, () => ['a']);
  assert.ok('error' in network && /network name "a-b"/.test(network.error));
});
