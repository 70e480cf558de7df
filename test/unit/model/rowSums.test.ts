/**
 * An imported row that does not sum to 1 beyond rounding is an error in every format, as a row
 * written in a model is (it was silently normalised: BIF's `0.1, 0.3` read as 0.25 / 0.75); rows
 * rounded to six digits, as published files write them, are still read (and normalised).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { readNetworkText } from '../../../server/src/model/networkFormats.js';
import { ROW_SUM_TOLERANCE } from '../../../server/src/engine/network.js';
import { tempFile } from '../../support/cli.js';

const repoRoot = resolve(import.meta.dirname, '../../..');

/** One network (A with two states; B | A with three) in each format, B's row for a2 given as `row`. */
function files(row: number[]): Record<string, string> {
  const r = row.join(' ');
  const good = '0.333333 0.333333 0.333334';
  return {
    'x.bif':
      'network x {}\nvariable A { type discrete [ 2 ] { a1, a2 }; }\nvariable B { type discrete [ 3 ] { b1, b2, b3 }; }\n' +
      `probability ( A ) { table 0.5, 0.5; }\nprobability ( B | A ) {\n  (a1) ${good};\n  (a2) ${r};\n}\n`,
    'x.xml':
      '<BIF VERSION="0.3"><NETWORK><NAME>x</NAME>\n<VARIABLE TYPE="nature"><NAME>A</NAME><OUTCOME>a1</OUTCOME><OUTCOME>a2</OUTCOME></VARIABLE>\n' +
      '<VARIABLE TYPE="nature"><NAME>B</NAME><OUTCOME>b1</OUTCOME><OUTCOME>b2</OUTCOME><OUTCOME>b3</OUTCOME></VARIABLE>\n' +
      '<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE></DEFINITION>\n' +
      `<DEFINITION><FOR>B</FOR><GIVEN>A</GIVEN>\n<TABLE>${good} ${r}</TABLE></DEFINITION>\n</NETWORK></BIF>\n`,
    'x.net':
      'net {}\nnode A { states = ("a1" "a2"); }\nnode B { states = ("b1" "b2" "b3"); }\n' +
      `potential (A) { data = (0.5 0.5); }\npotential (B | A) {\n data = ((${good}) (${r}));\n}\n`,
    'x.uai': `BAYES\n2\n2 3\n2\n1 0\n2 0 1\n\n2 0.5 0.5\n\n6 ${good} ${r}\n`,
    'x.xdsl':
      '<smile id="x"><nodes>\n<cpt id="A"><state id="a1"/><state id="a2"/><probabilities>0.5 0.5</probabilities></cpt>\n' +
      `<cpt id="B"><state id="b1"/><state id="b2"/><state id="b3"/><parents>A</parents>\n<probabilities>${good} ${r}</probabilities></cpt>\n</nodes></smile>\n`,
  };
}

test('every format: a row summing to 0.4 is an error naming the row and its sum; six-digit rounding is read', () => {
  const lines: Record<string, number> = { 'x.bif': 5, 'x.xml': 6, 'x.net': 5, 'x.uai': 6, 'x.xdsl': 4 };
  for (const [name, text] of Object.entries(files([0.1, 0.2, 0.1]))) {
    const r = readNetworkText(name, text);
    assert.ok('error' in r, `${name} is refused`);
    assert.match(r.error.message, /has a row (\((a2|s1)\) )?that sums to 0\.4, not 1 \(within 1e-5\)$/, name);
    assert.equal(r.error.line, lines[name], name);
  }
  for (const [name, text] of Object.entries(files([0.333333, 0.333333, 0.333333]))) {
    const r = readNetworkText(name, text);
    if ('error' in r) assert.fail(`${name}: ${r.error.message}`);
    const b = r.network.cpts[1]!.table;
    assert.ok(Math.abs(b[3]! + b[4]! + b[5]! - 1) < 1e-15, `${name}: the rounded row is normalised`);
  }
  // the tolerance: just inside is read, just outside refused
  const inside = readNetworkText('x.bif', files([0.5, 0.5 - 0.9 * ROW_SUM_TOLERANCE, 0])['x.bif']!);
  assert.ok('network' in inside);
  const outside = readNetworkText('x.bif', files([0.5, 0.5 - 1.1 * ROW_SUM_TOLERANCE, 0])['x.bif']!);
  assert.ok('error' in outside);
});

test('bayes marginals: an imported row off by more than rounding is file:line:col: error, exit 1', () => {
  const { file } = tempFile('bad.bif', files([0.1, 0.3, 0])['x.bif']!);
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), 'marginals', file], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stderr.trim(),
    `${file}:5:1: error: the probability block for 'B' has a row (a2) that sums to 0.4, not 1 (within 1e-5)`,
  );
});

test('hex, binary and octal numerals (0x1, 0b1, 0o1) are refused as probabilities, not read as numbers', () => {
  for (const bad of ['0x1', '0b1', '0o1', '-0x0']) {
    const texts: Record<string, string> = {
      'x.bif': `network x {}\nvariable A { type discrete [ 2 ] { a, b }; }\nprobability ( A ) { table 0, ${bad}; }\n`,
      'x.net': `net {}\nnode A { states = ("a" "b"); }\npotential (A) { data = (0 ${bad}); }\n`,
      'x.uai': `BAYES\n1\n2\n1\n1 0\n2 0 ${bad}\n`,
      'x.xml': `<BIF><NETWORK><VARIABLE><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>\n<DEFINITION><FOR>A</FOR><TABLE>0 ${bad}</TABLE></DEFINITION></NETWORK></BIF>`,
    };
    for (const [name, text] of Object.entries(texts)) {
      const r = readNetworkText(name, text);
      assert.ok('error' in r, `${name} ${bad}`);
      assert.match(
        r.error.message,
        new RegExp(`(expected a probability, found |a probability cannot be negative: )'${bad}'`),
        name,
      );
    }
  }
});
