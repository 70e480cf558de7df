import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { main } from '../../../server/src/cli.js';
import { control, forTerminal, visible } from '../../../server/src/cli/terminalText.js';
import { capture, tempFile } from '../../support/cli.js';

// Names as an attacker writes them: OSC 52 (write the clipboard), clear screen, DEL, CSI as C1, an RTL override.
const OSC52 = 'x\x1b]52;c;aGk=\x07';
const CLEAR = 'y\x1b[2J\r';
const C1 = 'z\x7f\x9b2J\u202e';
const BIF = `network n {}
variable A {
  type discrete [ 3 ] { "${OSC52}", "${CLEAR}", "${C1}" };
}
probability ( A ) {
  table 0.2, 0.3, 0.5;
}
`;
// Every control character a terminal acts on, but tab and line feed.
// eslint-disable-next-line no-control-regex
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

test('visible: C0 as \\xHH, DEL, C1 and bidi overrides as \\uHHHH, tab and line feed kept', () => {
  assert.equal(visible('a\x1b[2J\tb\n\r\x00'), 'a\\x1b[2J\tb\n\\x0d\\x00');
  assert.equal(visible('\x7f\x85\x9b\u202e\u2066ok'), '\\u007f\\u0085\\u009b\\u202e\\u2066ok');
  assert.equal(visible('plain ünïcode → ★'), 'plain ünïcode → ★');
});

test("the command's own controls reach the terminal; a name cannot forge one", () => {
  const red = control('\x1b[31m');
  assert.equal(forTerminal(`${red}error${control('\x1b[0m')}: ${CLEAR}`), '\x1b[31merror\x1b[0m: y\\x1b[2J\\x0d');
  // A token of another nonce (what a name in a file could hold) is left as text, its controls made visible.
  const forged = red.replace(/[0-9a-f]{12}/, '000000000000') + '\x1b]52;c;aGk=\x07';
  assert.doesNotMatch(forTerminal(forged), RAW);
});

test('bayes marginals prints names holding escape sequences as visible escapes', async () => {
  const { file, dir } = tempFile('esc.bif', BIF);
  try {
    const io = capture();
    assert.equal(await main(['marginals', file], io), 0);
    assert.doesNotMatch(io.stdout, RAW);
    assert.ok(io.stdout.includes('x\\x1b]52;c;aGk=\\x07 0.2'), io.stdout);
    assert.ok(io.stdout.includes('y\\x1b[2J\\x0d 0.3'), io.stdout);
    assert.ok(io.stdout.includes('z\\u007f\\u009b2J\\u202e 0.5'), io.stdout);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('--json stays valid JSON and gives the names exactly; error messages are escaped too', async () => {
  const { file, dir } = tempFile('esc.bif', BIF);
  try {
    const io = capture();
    assert.equal(await main(['marginals', file, '--json'], io), 0);
    assert.doesNotMatch(io.stdout, RAW);
    const out = JSON.parse(io.stdout) as { marginals: Record<string, Record<string, number>> };
    assert.deepEqual(out.marginals.A, { [OSC52]: 0.2, [CLEAR]: 0.3, [C1]: 0.5 });

    const bad = capture();
    assert.equal(await main(['marginals', file, '--evidence', 'A=w\x1b]52;c;Zm9v\x07'], bad), 1);
    assert.doesNotMatch(bad.stderr, RAW);
    assert.match(bad.stderr, /'w\\x1b\]52;c;Zm9v\\x07' is not a state of 'A'/);
    assert.ok(bad.stderr.includes('states: x\\x1b]52;c;aGk=\\x07'), bad.stderr);

    const usage = capture();
    assert.equal(await main(['fr\x1b[2Job'], usage), 2);
    assert.doesNotMatch(usage.stderr, RAW);
    assert.match(usage.stderr, /unknown command 'fr\\x1b\[2Job'/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
