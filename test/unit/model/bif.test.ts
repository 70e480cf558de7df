import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBif, writeBif } from '../../../server/src/model/bif.js';
import { UnwritableNetworkError } from '../../../server/src/model/networkText.js';
import { topologicalOrder, type BayesianNetwork } from '../../../server/src/engine/network.js';
import { sharedFile, NO_SHARED } from '../../support/shared.js';
import { budgetsFor } from '../../../server/src/engine/budget.js';
import { createRng, type Rng } from '../../../server/src/engine/random.js';

function read(text: string): BayesianNetwork {
  const r = readBif(text);
  if ('error' in r) assert.fail(`line ${r.error.line}: ${r.error.message}`);
  return r.network;
}

function assertRowsSumToOne(net: BayesianNetwork, file: string): void {
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    for (let r = 0; r < cpt.table.length; r += k) {
      let s = 0;
      for (let x = 0; x < k; x++) s += cpt.table[r + x]!;
      assert.ok(Math.abs(s - 1) < 1e-3, `${file}: ${net.variables[cpt.child]!.name} row ${r / k} sums to ${s}`);
    }
  }
}

test('every bnlearn network in ../shared/data/bif reads, is a DAG, and round-trips through BIF', (t) => {
  const dir = sharedFile('bif');
  if (!dir) return t.skip(NO_SHARED);
  const expectedNodes: Record<string, number> = {
    asia: 8,
    alarm: 37,
    child: 20,
    hailfinder: 56,
    munin: 1041,
    andes: 223,
    pathfinder: 109,
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.bif'))) {
    const net = read(readFileSync(join(dir, file), 'utf8'));
    const name = file.replace(/\.bif$/, '');
    if (expectedNodes[name]) assert.equal(net.variables.length, expectedNodes[name], file);
    assert.ok('order' in topologicalOrder(net), `${file} is acyclic`);
    assertRowsSumToOne(net, file);
    const again = read(writeBif(net));
    assert.deepEqual(again.variables, net.variables, file);
    net.cpts.forEach((c, i) => {
      assert.deepEqual(again.cpts[i]!.parents, c.parents);
      assert.deepEqual(Array.from(again.cpts[i]!.table), Array.from(c.table), `${file}: ${net.variables[i]!.name}`);
    });
  }
});

test('state names that are not identifiers survive (child: 0-3_days, 12+)', (t) => {
  const f = sharedFile('bif', 'child.bif');
  if (!f) return t.skip(NO_SHARED);
  const net = read(readFileSync(f, 'utf8'));
  const states = net.variables.flatMap((v) => v.states);
  assert.ok(states.includes('0-3_days'));
  assert.ok(states.includes('12+'));
  assert.ok(
    read(writeBif(net))
      .variables.flatMap((v) => v.states)
      .includes('12+'),
  );
});

test('JavaBayes form: quoted names, header without |, flat table with the child slowest, -1 unknown', () => {
  const net = read(`// comment
network "Alarm" { //2 variables
}
variable  "LVFailure" { //2 values
	type discrete[2] {  "True"  "False" };
	property "position = (145, 36)" ;
}
variable  "Hypovolemia" {
	type discrete[2] {  "True"  "False" };
}
variable  "StrokeVolume" {
	type discrete[3] {  "Low"  "Normal"  "High" };
}
probability (  "Hypovolemia" ) { table 0.2 0.8 ; }
probability (  "LVFailure" ) { table -1 -1 ; }
probability (  "StrokeVolume"  "LVFailure"  "Hypovolemia" ) { //3 variable(s) and 12 values
	table 0.98 0.5 0.95 0.05 0.01 0.49 0.04 0.9 0.01 0.01 0.01 0.05 ;
}`);
  assert.equal(net.name, 'Alarm');
  const sv = net.cpts[2]!;
  assert.deepEqual(sv.parents, [0, 1]);
  // Row (LVFailure=True, Hypovolemia=True) = (0.98, 0.01, 0.01); row (False, False) = (0.05, 0.9, 0.05).
  assert.deepEqual(Array.from(sv.table.subarray(0, 3)), [0.98, 0.01, 0.01]);
  assert.deepEqual(Array.from(sv.table.subarray(9, 12)), [0.05, 0.9, 0.05]);
  assert.ok(Number.isNaN(net.cpts[0]!.table[0]!));
});

test('default rows fill the rows not listed', () => {
  const net = read(`network n {}
variable A { type discrete [2] { a0, a1 }; }
variable B { type discrete [2] { b0, b1 }; }
probability ( A ) { table 0.5, 0.5; }
probability ( B | A ) { (a1) 0.9, 0.1; default 0.3, 0.7; }`);
  assert.deepEqual(Array.from(net.cpts[1]!.table), [0.3, 0.7, 0.9, 0.1]);
});

test('errors name the problem and the line', () => {
  const cases: [string, RegExp, number][] = [
    ['network n {}\nvariable A { type discrete [3] { a, b }; }', /declares 3 states but lists 2/, 2],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A | Z ) { table 1, 0; }',
      /unknown variable 'Z'/,
      3,
    ],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A ) { table 1; }',
      /expected 2 probabilities, found 1/,
      3,
    ],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nvariable B { type discrete [2] { a, b }; }\nprobability ( A ) { table 1, 0; }\nprobability ( B | A ) {\n (a) 1, 0;\n}',
      /no row for \(b\)/,
      5,
    ],
    ['network n {}\nvariable A { type discrete [2] { a, b }; }', /'A' has no probability block/, 1],
    ['nonsense', /expected 'network', 'variable' or 'probability'/, 1],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A ) { table 1, x; }',
      /expected a probability, found 'x'/,
      3,
    ],
  ];
  for (const [text, message, line] of cases) {
    const r = readBif(text);
    assert.ok('error' in r, text);
    assert.match(r.error.message, message);
    assert.equal(r.error.line, line, r.error.message);
  }
});

test('a BIF table larger than the budget is refused at its line, before it is allocated', () => {
  // 30 parents of 10 states: 2 × 10^30 entries declared in 5 KB.
  const parents = Array.from({ length: 30 }, (_, i) => `P${i}`);
  const text = [
    'network huge {}',
    ...parents.map(
      (p) => `variable ${p} { type discrete [ 10 ] { ${Array.from({ length: 10 }, (_, j) => `s${j}`).join(', ')} }; }`,
    ),
    'variable C { type discrete [ 2 ] { a, b }; }',
    ...parents.map((p) => `probability ( ${p} ) { table ${Array(10).fill('0.1').join(', ')}; }`),
    `probability ( C | ${parents.join(', ')} ) { default 0.5, 0.5; }`,
  ].join('\n');
  const before = process.memoryUsage.rss();
  const r = readBif(text);
  assert.ok('error' in r);
  assert.equal(r.error.line, 63);
  assert.match(
    r.error.message,
    /the table of 'C' needs more than 10\^308 entries|the table of 'C' needs 2\.00 × 10\^30 entries, over the budget of 16,777,216/,
  );
  assert.ok(process.memoryUsage.rss() - before < 64 * 2 ** 20);
  // Within a smaller budget, a table of 2 × 10^3 entries is refused too.
  const small = readBif(
    text.replace(/probability \( C \|[^\n]*/, 'probability ( C | P0, P1, P2 ) { default 0.5, 0.5; }'),
    {
      ...budgetsFor(1),
      maxTableEntries: 1000,
    },
  );
  assert.ok('error' in small && /needs 2,000 entries, over the budget of 1,000/.test(small.error.message));
});

test('BIF: tables each within budget but over the network total are refused before the one that crosses it', () => {
  // 8 children of the same 10 binary parents: 2,048 entries each, 16,384 in all, against a total of 10,000.
  const parents = Array.from({ length: 10 }, (_, i) => `P${i}`);
  const children = Array.from({ length: 8 }, (_, i) => `C${i}`);
  const text = [
    'network n { }',
    ...[...parents, ...children].map((v) => `variable ${v} { type discrete [ 2 ] { a, b }; }`),
    ...parents.map((p) => `probability ( ${p} ) { table 0.5, 0.5; }`),
    ...children.map((c) => `probability ( ${c} | ${parents.join(', ')} ) { default 0.5, 0.5; }`),
  ].join('\n');
  const budgets = { ...budgetsFor(1), maxTableEntries: 4096, maxTotalEntries: 10_000 };
  const r = readBif(text, budgets);
  assert.ok('error' in r);
  // 10 parents × 2 + 4 children × 2,048 = 8,212 fit; the fifth child would make 10,260.
  assert.equal(r.error.line, 1 + 18 + 10 + 5);
  assert.match(r.error.message, /the network \(all its tables\) needs 10,260 entries, over the budget of 10,000/);
  assert.ok('network' in readBif(text, { ...budgets, maxTotalEntries: 16_404 }));
});

/**
 * Digests of every shared network as read by the token-per-number parser this reader replaced
 * (commit bead6c0), computed before the change with the digest() below: sha256 over the JSON of
 * [name, variables, [child, parents] per CPT], then each CPT's Float64Array bytes (little-endian),
 * first 16 hex digits. The streaming reader must give bit-identical networks, normalised rows included.
 */
const DIGESTS: Record<string, string> = {
  alarm: '8e645828aeea614d',
  andes: '01e102f564c7bae0',
  asia: '5bec18614e90fe64',
  barley: 'c53753cedfafbef2',
  cancer: 'c2fbab74dd6d5b94',
  child: 'a6bc6669049572e7',
  diabetes: '50b9a83f8230ba3b',
  earthquake: '5ae4ae5555e4e851',
  hailfinder: '49dcb9494714990c',
  hepar2: '92ccc30167183adc',
  insurance: '0389905c8590d967',
  link: 'd9dd24cecac6167b',
  mildew: '96b80c06a3edded5',
  munin: '4ca8c2404f98992b',
  munin1: '17aeca77bfd8db04',
  munin2: '2ee7c71d2f77dcef',
  munin3: 'd398c475e9accc61',
  munin4: '8f52c076d6464942',
  pathfinder: 'd8de25f403293a56',
  pigs: '87015a12b7b32ae0',
  sachs: '237e819b0b818ee7',
  survey: '87b4072bb4507c58',
  water: 'e9a9bc80801ac2df',
  win95pts: '42d8747f9dc8ccd2',
};

function digest(net: BayesianNetwork): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([net.name, net.variables, net.cpts.map((c) => [c.child, c.parents])]));
  for (const c of net.cpts) h.update(new Uint8Array(c.table.buffer, c.table.byteOffset, c.table.byteLength));
  return h.digest('hex').slice(0, 16);
}

test('every shared network reads bit-identical to the digest pinned from the previous parser', (t) => {
  const dir = sharedFile('bif');
  if (!dir) return t.skip(NO_SHARED);
  const files = readdirSync(dir).filter((f) => f.endsWith('.bif'));
  for (const file of files) {
    const name = file.replace(/\.bif$/, '');
    if (!(name in DIGESTS)) continue; // a network added to ../shared later has no pinned digest
    assert.equal(digest(read(readFileSync(join(dir, file), 'utf8'))), DIGESTS[name], file);
  }
  assert.ok(files.length >= Object.keys(DIGESTS).length, 'all pinned networks are in ../shared');
});

/** A random numeral in the forms BIF files and hand-written ones use, and some they do not. */
function randomNumeral(rng: Rng): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(rng.int(10))).join('');
  const sign = ['', '', '', '-', '+'][rng.int(5)]!;
  switch (rng.int(5)) {
    case 0: // 0.123456: bnlearn's form
      return `${sign}0.${digits(1 + rng.int(10))}`;
    case 1: // up to 15 significant digits and a power of ten within ±22: the exact fast path
      return `${sign}${digits(rng.int(8))}.${digits(1 + rng.int(8))}e${rng.int(45) - 22}`;
    case 2: // 16–25 digits: past the fast path
      return `${sign}${digits(1 + rng.int(12))}.${digits(4 + rng.int(13))}`;
    case 3: // large and tiny exponents, subnormals, overflow
      return `${sign}${digits(1 + rng.int(3))}${rng.int(2) ? '.' + digits(rng.int(17)) : ''}${'eE'[rng.int(2)]}${
        ['', '+', '-'][rng.int(3)]
      }${rng.int(400)}`;
    default: {
      // leading zeros, a bare point on either side
      const point = rng.int(2) ? '.' : '';
      return `${sign}${'0'.repeat(rng.int(4))}${rng.int(2) ? digits(rng.int(4)) : ''}${point}${digits(rng.int(6))}`;
    }
  }
}

test('probabilities read exactly as Number() reads them: random numerals and edge cases', () => {
  const edge = [
    '0', '-0', '+0', '1', '1.', '.5', '-.5', '0.', '.0', '00.5', '000', '007', '1e0', '1E5', '1e+5', '1e05', '1e-5',
    '0.1', '0.2', '0.3', '0.30000000000000004', '0.123456', '0.9999999', '0.99999999999999999',
    '123456789012345', '1234567890123456', '12345678901234567', '9007199254740991', '9007199254740993',
    '900719925474099.1', '9007199254740.992', '0.00000000009007199254740991', '9.007199254740993',
    '1e22', '1e23', '1e-22', '1e-23', '123456789012345e22', '123456789012345e-22', '0.000000000000000000001',
    '1e-320', '4.9e-324', '5e-324', '2.4703282292062327e-324', '2.4703282292062328e-324', '1e-400',
    '2.2250738585072011e-308', '2.2250738585072014e-308', '1.7976931348623157e308', '1.7976931348623159e308',
    '1e309', '0e999999', '1e99999999999', 'Infinity', '+Infinity', '-1', '-1.0',
  ]; // prettier-ignore
  const rng = createRng(18);
  const numerals = [...edge, ...Array.from({ length: 20000 }, () => randomNumeral(rng))];
  const valid = numerals.filter((s) => s !== '' && !Number.isNaN(Number(s)));
  assert.ok(valid.length > 19000, `${valid.length} valid numerals`);
  // One variable with a state per numeral and a last entry of -1 (unknown), so that its row is not normalised.
  const states = valid.map((_, i) => `s${i}`).concat('unknown');
  const text =
    `network n {}\nvariable X { type discrete [ ${states.length} ] { ${states.join(', ')} }; }\n` +
    `probability ( X ) { table ${valid.join(', ')} -1; }\n`;
  const table = read(text).cpts[0]!.table;
  valid.forEach((s, i) => {
    const expected = Number(s) < 0 ? NaN : Number(s); // a negative entry is unknown
    assert.ok(Object.is(table[i], expected), `${s}: read ${table[i]}, Number() gives ${expected}`);
  });
  // Hex, binary and octal numerals are refused: Number() reads them, a probability table means none of them.
  for (const bad of [
    '.',
    '-',
    '+',
    '1e',
    '1e+',
    'e5',
    '1..2',
    '1.2.3',
    '--1',
    '1e5x',
    '0.5/',
    'NaN',
    '1_000',
    '١',
    '0x1F',
    '0b101',
    '0o17',
  ]) {
    const r = readBif(
      `network n {}\nvariable X { type discrete [ 2 ] { a, b }; }\nprobability ( X ) {\n table 0.5 ${bad}; }`,
    );
    assert.ok('error' in r, bad);
    assert.equal(r.error.message, `expected a probability, found '${bad}'`);
    assert.equal(r.error.line, 4, bad);
  }
});

test('a block before its variables, and errors in blocks, are reported as they always were', () => {
  const head = 'network n {}\nvariable A { type discrete [2] { a0, a1 }; }\n';
  const b = 'variable B { type discrete [2] { b0, b1 }; }\n';
  const tables = 'probability ( A ) { table 0.25, 0.75; }\nprobability ( B | A ) { (a0) 0.5, 0.5; (a1) 0.1 0.9; }\n';
  // a block whose variable is declared after it is read once all variables are known
  const later = read(
    head + 'probability ( B | A ) { (a0) 0.5, 0.5; (a1) 0.1 0.9; }\n' + b + 'probability ( A ) { table 0.25, 0.75; }',
  );
  assert.deepEqual(later, read(head + b + tables));
  const fails = (text: string, line: number, message: RegExp) => {
    const r = readBif(text);
    assert.ok('error' in r, text);
    assert.match(r.error.message, message);
    assert.equal(r.error.line, line, r.error.message);
  };
  // a syntax error further on is reported before the error of a table above it
  fails(head + b + 'probability ( A ) { table 0.25, x; }\nnonsense', 5, /expected 'network'/);
  // the first block's error is reported, whatever is wrong in the blocks after it
  fails(head + b + 'probability ( A ) { table 0.25; }\nprobability ( B | A ) { (a2) 0.5, 0.5; }', 4, /expected 2 prob/);
  // ... and a table that fits the network's total is counted once against it, though read twice
  const total = readBif(head + b + 'probability ( A ) { table 0.25; }', { ...budgetsFor(1), maxTotalEntries: 2 });
  assert.ok('error' in total && /expected 2 probabilities, found 1/.test(total.error.message));
  fails(head + b + tables + 'probability ( A ) {\n table 0.5, 0.5, 0.5; }', 7, /too many probabilities: expected 2/);
  fails(head + b + tables + 'probability ( A ) { table 0.5, 0.5; }', 6, /a second probability block for 'A'/);
  fails(head + b + 'probability ( A ) { table 0.5, 0.5;\n', 4, /unclosed probability block for 'A'/);
  fails(head + b + 'probability ( B | A ) { (a0 0.5, 0.5; }', 4, /unclosed '\(' in a table row/);
  fails(head + b + 'probability ( A ) { table 0.5 "0.5"; }', 4, /expected a probability, found '0.5'/);
  // statements: `property` skipped, empty ones ignored, NaN for -1, comments between numbers
  const net = read(
    head +
      b +
      'probability ( A ) { property p = "x;" ; ; table 0.25, /* c */ 0.75 // d\n; }\n' +
      'probability ( B | A ) { default -1, -1; (a1) 0.1 0.9; }',
  );
  assert.deepEqual(Array.from(net.cpts[0]!.table), [0.25, 0.75]);
  assert.deepEqual(Array.from(net.cpts[1]!.table), [NaN, NaN, 0.1, 0.9]);
});

test('names with quotes, backslashes, commas and spaces survive BIF → BIF; a name BIF cannot hold is refused', () => {
  // JSON.stringify quoted `x"y` as "x\"y" and `a\b` as "a\\b", but BIF strings have no escapes:
  // the first read back as the states `x\`, `y` and ', ' (an error), the second as `a\\b`.
  const states = ['a b', 'a\\b', 'é', '1', 'true', '<5', 'a,b', '12+', '(x)', ''];
  const net: BayesianNetwork = {
    name: 'odd names',
    variables: [
      { name: 'A', states: states.slice(0, -1) },
      { name: 'B-1', states: ['yes', 'no'] },
    ],
    cpts: [
      { child: 0, parents: [], table: new Float64Array(9).fill(1 / 9) },
      { child: 1, parents: [0], table: Float64Array.from({ length: 18 }, (_, i) => (i % 2 ? 0.75 : 0.25)) },
    ],
  };
  const back = readBif(writeBif(net));
  assert.ok('network' in back, JSON.stringify(back));
  assert.deepEqual(back.network.variables, net.variables);
  assert.deepEqual(
    back.network.cpts.map((c) => Array.from(c.table)),
    net.cpts.map((c) => Array.from(c.table)),
  );
  net.variables[0]!.states[0] = 'x"y';
  assert.throws(() => writeBif(net), UnwritableNetworkError);
});

test('rows read in place (bare, quoted, shuffled, across lines) equal rows the token path reads (comments, no commas)', () => {
  const head =
    'network n {}\nvariable A { type discrete [3] { a0, a1, "a 2" }; }\nvariable B { type discrete [2] { b0, b1 }; }\n' +
    'variable C { type discrete [2] { c0, c1 }; }\nprobability ( A ) { table 0.2, 0.3, 0.5; }\n' +
    'probability ( B ) { table 0.5, 0.5; }\n';
  const rows = [
    ['a0', 'b0', '0.1, 0.9'],
    ['a0', 'b1', '0.2, 0.8'],
    ['a1', 'b0', '0.3, 0.7'],
    ['a1', 'b1', '0.4, 0.6'],
    ['"a 2"', 'b0', '0.5, 0.5'],
    ['"a 2"', 'b1', '0.6, 0.4'],
  ];
  const block = (row: (r: string[]) => string, order = rows) =>
    head + `probability ( C | A, B ) {\n${order.map((r) => row(r)).join('\n')}\n}\n`;
  const expected = read(block(([a, b, p]) => `  (${a}, ${b}) ${p};`));
  assert.deepEqual(Array.from(expected.cpts[2]!.table), [0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6, 0.5, 0.5, 0.6, 0.4]);
  const quote = (s: string) => (s.startsWith('"') ? s : `"${s}"`);
  const variants: [string, (r: string[]) => string, string[][]?][] = [
    ['quoted', ([a, b, p]) => `("${quote(a!).slice(1, -1)}", ${quote(b!)}) ${p};`],
    ['across lines', ([a, b, p]) => `  (\n ${a} ,\n\t${b}\n)\n ${p}\n;`],
    ['reversed', ([a, b, p]) => `(${a}, ${b}) ${p};`, [...rows].reverse()],
    ['shuffled', ([a, b, p]) => `(${a}, ${b}) ${p};`, [rows[3]!, rows[0]!, rows[5]!, rows[1]!, rows[4]!, rows[2]!]],
    ['a comment in the row', ([a, b, p]) => `(${a}, /* x */ ${b}) ${p};`],
    ['no comma', ([a, b, p]) => `(${a} ${b}) ${p};`],
    ['two commas', ([a, b, p]) => `(${a},, ${b}) ${p};`],
  ];
  for (const [what, row, order] of variants) assert.deepEqual(read(block(row, order)), expected, what);
  // an error after rows across lines is on its own line, as the token path counts them
  const bad = readBif(block(([a, b, p]) => `  (\n${a},\n${b}) ${p};`) + 'nonsense');
  assert.deepEqual('error' in bad && bad.error, {
    message: "expected 'network', 'variable' or 'probability', found 'nonsense'",
    line: 8 + 3 * rows.length + 1,
  });
  // a state of another parent, a name split by a quote, a bare name with a space: the token path's messages
  const fails = (row: string, message: string) => {
    const r = readBif(head + `probability ( C | A, B ) {\n${row}\n}\n`);
    assert.deepEqual('error' in r && r.error, { message, line: 8 }, row);
  };
  fails('(b0, b0) 0.5, 0.5;', "'b0' is not a state of 'A'");
  fails('(a0x, b0) 0.5, 0.5;', "'a0x' is not a state of 'A'"); // a0 guessed: a name it only begins
  fails('("a0x", b0) 0.5, 0.5;', "'a0x' is not a state of 'A'");
  fails('(a 2, b0) 0.5, 0.5;', 'row gives 3 parent states, expected 2');
  // … also where the previous row makes `a 2` (not a bare word) the state guessed next
  fails('(a1, b0) 0.5, 0.5; (a 2, b0) 0.5, 0.5;', 'row gives 3 parent states, expected 2');
  fails('(a0"x", b0) 0.5, 0.5;', 'row gives 3 parent states, expected 2');
  fails('(a0, b0) 0.5, 0.5, 0.1;', 'too many probabilities: expected 2');
  fails('(a0, b0) 0.5;', 'expected 2 probabilities, found 1');
});
