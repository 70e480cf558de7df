/**
 * The network formats beside BIF: every shared bnlearn network round-trips BIF → X → back with
 * the same CPTs; files in the style other tools write (Hugin, Weka, pgmpy, GeNIe, the UAI
 * competition) read as they are and agree with asia.bif entry by entry, whatever parent order
 * they use; bad files are refused with the line at fault, huge declarations before allocating.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readBif } from '../../../server/src/model/bif.js';
import { readHuginNet, writeHuginNet } from '../../../server/src/model/hugin.js';
import { NETWORK_FORMATS, networkFormatOf, readNetworkText } from '../../../server/src/model/networkFormats.js';
import { UnwritableNetworkError, type NetworkReadResult } from '../../../server/src/model/networkText.js';
import { readUai, readUaiEvidence, writeUai, writeUaiEvidence } from '../../../server/src/model/uai.js';
import { readXdsl } from '../../../server/src/model/xdsl.js';
import { readXmlBif, writeXmlBif } from '../../../server/src/model/xmlbif.js';
import { JunctionTree } from '../../../server/src/engine/inference/junctionTree.js';
import { rowAssignment, type BayesianNetwork } from '../../../server/src/engine/network.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';
import { createRng } from '../../../server/src/engine/random.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures/networks');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');

function ok(r: NetworkReadResult, what = 'network'): BayesianNetwork {
  if ('error' in r) assert.fail(`${what}: line ${r.error.line}: ${r.error.message}`);
  return r.network;
}

function fails(r: NetworkReadResult, line: number, message: RegExp): void {
  assert.ok('error' in r, 'expected an error');
  assert.match(r.error.message, message);
  assert.equal(r.error.line, line, `line of '${r.error.message}'`);
}

/** P(child = state | parents = states) looked up by names, whatever order the parents are in. */
function p(net: BayesianNetwork, child: string, state: string, given: Record<string, string> = {}): number {
  const c = net.variables.findIndex((v) => v.name === child);
  assert.ok(c >= 0, `no variable ${child}`);
  const cpt = net.cpts[c]!;
  let row = 0;
  for (const q of cpt.parents) {
    const v = net.variables[q]!;
    assert.ok(v.name in given, `${child} has parent ${v.name}`);
    row = row * v.states.length + v.states.indexOf(given[v.name]!);
  }
  assert.equal(cpt.parents.length, Object.keys(given).length, `parents of ${child}`);
  const k = net.variables[c]!.states.length;
  return cpt.table[row * k + net.variables[c]!.states.indexOf(state)]!;
}

/** Every entry of `expected` (names, states, parents by name) equals the same entry of `actual`. */
function sameTablesByName(actual: BayesianNetwork, expected: BayesianNetwork): void {
  assert.deepEqual(actual.variables.map((v) => v.name).sort(), expected.variables.map((v) => v.name).sort());
  for (const cpt of expected.cpts) {
    const child = expected.variables[cpt.child]!;
    for (let r = 0; r < cpt.table.length / child.states.length; r++) {
      const states = rowAssignment(expected, cpt.child, r);
      const given = Object.fromEntries(
        cpt.parents.map((q, i) => {
          const parent = expected.variables[q]!;
          return [parent.name, parent.states[states[i]!]!];
        }),
      );
      child.states.forEach((s, x) => {
        assert.equal(p(actual, child.name, s, given), cpt.table[r * child.states.length + x], `${child.name}=${s}`);
      });
    }
  }
}

/** Same structure and tables by position (UAI keeps no names). */
function sameTablesByIndex(actual: BayesianNetwork, expected: BayesianNetwork, file: string, tolerance = 1e-15): void {
  assert.deepEqual(
    actual.variables.map((v) => v.states.length),
    expected.variables.map((v) => v.states.length),
    file,
  );
  expected.cpts.forEach((cpt, i) => {
    const got = actual.cpts[i]!;
    assert.deepEqual(got.parents, cpt.parents, `${file}: parents of ${expected.variables[i]!.name}`);
    assert.equal(got.table.length, cpt.table.length);
    for (let j = 0; j < cpt.table.length; j++) {
      if (Math.abs(got.table[j]! - cpt.table[j]!) > tolerance) {
        assert.fail(`${file}: ${expected.variables[i]!.name} entry ${j}: ${got.table[j]} ≠ ${cpt.table[j]}`);
      }
    }
  });
}

function marginals(net: BayesianNetwork, evidence = new Map<number, number>()): number[][] {
  const jt = JunctionTree.compile(net);
  jt.setEvidence(evidence);
  jt.propagate();
  return net.variables.map((_, i) => Array.from(jt.marginal(i)));
}

const writable = NETWORK_FORMATS.filter((f) => f.write && f.name !== 'BIF');

test('every shared network round-trips BIF → XMLBIF, Hugin NET, UAI → back with the same tables', (t) => {
  const dir = sharedFile('bif');
  if (!dir) return t.skip(NO_SHARED);
  const files = readdirSync(dir).filter((f) => f.endsWith('.bif'));
  assert.ok(files.length >= 20, `only ${files.length} networks`);
  for (const file of files) {
    const net = ok(readBif(readFileSync(join(dir, file), 'utf8')), file);
    for (const format of writable) {
      const back = ok(format.read(format.write!(net)), `${file} as ${format.name}`);
      if (format.name !== 'UAI') {
        assert.deepEqual(back.variables, net.variables, `${file} as ${format.name}`);
        assert.equal(back.name, net.name);
      } else {
        assert.deepEqual(back.variables[0]!.states.slice(0, 2), ['s0', 's1']);
      }
      sameTablesByIndex(back, net, `${file} as ${format.name}`);
    }
  }
});

test('small shared networks keep their marginals, with and without evidence, through every format', (t) => {
  for (const name of ['asia', 'cancer', 'earthquake', 'survey', 'sachs', 'child', 'alarm', 'insurance']) {
    const file = sharedFile('bif', `${name}.bif`);
    if (!file) return t.skip(NO_SHARED);
    const net = ok(readBif(readFileSync(file, 'utf8')));
    // evidence on the last variable's last state (never impossible in these networks)
    const last = net.variables.length - 1;
    const evidence = new Map([[last, net.variables[last]!.states.length - 1]]);
    const before = [marginals(net), marginals(net, evidence)];
    for (const format of writable) {
      const back = ok(format.read(format.write!(net)));
      const after = [marginals(back), marginals(back, evidence)];
      after.forEach((m, e) =>
        m.forEach((dist, v) =>
          dist.forEach((x, s) => {
            const was = before[e]![v]![s]!;
            assert.ok(
              Math.abs(x - was) <= 1e-15,
              `${name} as ${format.name}: ${net.variables[v]!.name} ${x} vs ${was}`,
            );
          }),
        ),
      );
    }
  }
});

test('files in the style of Hugin, Weka, pgmpy and GeNIe read as they are and agree with asia.bif', (t) => {
  const bifFile = sharedFile('bif', 'asia.bif');
  if (!bifFile) return t.skip(NO_SHARED);
  const asia = ok(readBif(readFileSync(bifFile, 'utf8')));
  const hugin = ok(readHuginNet(fixture('asia-hugin.net')), 'asia-hugin.net');
  sameTablesByName(hugin, asia);
  // either's parents are (tub, lung) in the file, (lung, tub) in asia.bif: the lookup is by name
  assert.deepEqual(
    hugin.cpts[5]!.parents.map((q) => hugin.variables[q]!.name),
    ['tub', 'lung'],
  );
  assert.equal(hugin.name, 'unknown'); // Hugin's net block has no name: the CLI names it after the file
  const weka = ok(readXmlBif(fixture('asia-weka.xml')), 'asia-weka.xml');
  assert.equal(weka.name, 'Asia');
  sameTablesByName(weka, asia);
  const genie = ok(readXdsl(fixture('asia-genie.xdsl')), 'asia-genie.xdsl');
  assert.equal(genie.name, 'Asia');
  sameTablesByName(genie, asia);
  // UAI has no names: variable i of asia.uai is variable i of asia.bif (either's parents in the other order)
  const uai = ok(readUai(fixture('asia.uai')), 'asia.uai');
  sameTablesByName({ ...uai, variables: asia.variables }, asia);
});

test('survey in pgmpy XMLBIFWriter style agrees with survey.bif (three-state parent first)', (t) => {
  const bifFile = sharedFile('bif', 'survey.bif');
  if (!bifFile) return t.skip(NO_SHARED);
  const survey = ok(readBif(readFileSync(bifFile, 'utf8')));
  const pgmpy = ok(readXmlBif(fixture('survey-pgmpy.xml')), 'survey-pgmpy.xml');
  sameTablesByName(pgmpy, survey);
});

test('Hugin class files, compact one-line data and comma-separated positions read', () => {
  const cls = ok(readHuginNet(fixture('asia-class.net')));
  assert.equal(cls.name, 'asia');
  assert.equal(p(cls, 'lung', 'no', { smoke: 'no' }), 0.99);
  const compact = ok(readHuginNet(fixture('asia-compact.net')));
  assert.equal(p(compact, 'tub', 'yes', { asia: 'no' }), 0.01);
  assert.equal(p(compact, 'asia', 'yes'), 0.01);
});

test('Hugin NET data nests one level per parent but the last, rows in the engine order', () => {
  const net = ok(
    readBif(`network n {}
variable A { type discrete [ 2 ] { a0, a1 }; }
variable B { type discrete [ 3 ] { b0, b1, b2 }; }
variable C { type discrete [ 2 ] { c0, c1 }; }
probability ( A ) { table 0.5, 0.5; }
probability ( B ) { table 0.2, 0.3, 0.5; }
probability ( C | A, B ) {
  (a0, b0) 0.1, 0.9; (a0, b1) 0.2, 0.8; (a0, b2) 0.3, 0.7;
  (a1, b0) 0.4, 0.6; (a1, b1) 0.5, 0.5; (a1, b2) 0.6, 0.4;
}`),
  );
  const text = writeHuginNet(net);
  const data = text.slice(text.indexOf('potential ( C | A B )'));
  assert.equal(
    data.replace(/\s+/g, ' ').trim(),
    'potential ( C | A B ) { data = (((0.1 0.9) (0.2 0.8) (0.3 0.7)) ((0.4 0.6) (0.5 0.5) (0.6 0.4))); }',
  );
  assert.match(text, /^net\n\{\n {4}node_size = \(80 40\);\n {4}name = "n";\n\}/);
  // positions for other tools' editors: one row per depth
  assert.deepEqual(
    [...text.matchAll(/node (\w+)\n\{\n {4}position = \((\d+) (\d+)\);/g)].map((m) => m.slice(1).join(' ')),
    ['A 40 40', 'B 200 40', 'C 40 140'],
  );
  assert.match(writeXmlBif(net), /<NAME>C<\/NAME>\n(.*\n){2} {2}<PROPERTY>position = \(40, 140\)<\/PROPERTY>/);
});

test('the UAI competition example: brute-force posterior with its evidence file, both evidence forms', () => {
  const net = ok(readUai(fixture('competition.uai')));
  assert.deepEqual(
    net.variables.map((v) => v.states.length),
    [2, 2, 3],
  );
  assert.equal(net.variables[2]!.name, 'X2');
  const old = readUaiEvidence(fixture('competition.uai.evid'), net);
  assert.ok('evidence' in old, JSON.stringify(old));
  assert.deepEqual(old.evidence, [{ variable: 2, state: 0 }]);
  // P(X0 | X2 = 0) by enumeration over the file's numbers
  const p0 = [0.436, 0.564],
    p1 = [
      [0.128, 0.872],
      [0.92, 0.08],
    ],
    p2 = [
      [0.21, 0.333, 0.457],
      [0.811, 0.0, 0.189],
    ];
  const joint = [0, 1].map((a) => p0[a]! * (p1[a]![0]! * p2[0]![0]! + p1[a]![1]! * p2[1]![0]!));
  const m = marginals(net, new Map([[2, 0]]));
  assert.ok(Math.abs(m[0]![0]! - joint[0]! / (joint[0]! + joint[1]!)) < 1e-15);
  const fresh = readUaiEvidence(fixture('competition-new.uai.evid'), net);
  assert.ok('evidence' in fresh);
  assert.deepEqual(fresh.evidence, [
    { variable: 0, state: 1 },
    { variable: 2, state: 2 },
  ]);
  assert.equal(writeUaiEvidence(fresh.evidence), '2 0 1 2 2\n');
  assert.deepEqual(readUaiEvidence('', net), { evidence: [] });
  assert.deepEqual(readUaiEvidence('1\n3 0', net), {
    error: { message: 'variable 3 does not exist: the network has 3', line: 2 },
  });
  assert.deepEqual(readUaiEvidence('1 2\n3', net), {
    error: { message: 'variable 2 (X2) has 3 states: state 3 does not exist', line: 2 },
  });
  assert.match(JSON.stringify(readUaiEvidence('2\n1 0 0\n1 1 1', net)), /2 evidence samples; only one is read/);
});

test('UAI refuses Markov networks and other preambles, and checks counts against the declarations', () => {
  fails(
    readUai(fixture('competition.uai').replace('BAYES', 'MARKOV')),
    1,
    /Markov network \(MARKOV\): only Bayesian networks \(BAYES\)/,
  );
  fails(readUai('\n\nnet {'), 3, /expected 'BAYES'/);
  fails(
    readUai('BAYES\n2\n2 2\n1\n1 0\n2\n0.5 0.5\n'),
    4,
    /one function \(CPT\) per variable: 2 variables but 1 functions/,
  );
  fails(readUai('BAYES\n1\n2\n1\n1 0\n3\n0.5 0.5 0.1\n'), 6, /declares 3 entries, but its scope needs 2/);
  fails(readUai('BAYES\n1\n2\n1\n1 0\n2\n0.5 x\n'), 7, /expected a probability, found 'x'/);
  fails(readUai('BAYES\n1\n2\n1\n1 0\n2\n0.5 -0.5\n'), 7, /cannot be negative/);
  fails(readUai('BAYES\n2\n2 2\n2\n1 0\n1 0\n2\n0.5 0.5\n2\n0.5 0.5\n'), 6, /a second table for 'X0'/);
  fails(readUai('BAYES\n2\n2 2\n2\n2 1 0\n2 0 1\n4\n1 0 0 1\n4\n1 0 0 1\n'), 6, /the tables form a cycle: X1 → X0/);
  fails(readUai('BAYES\n1\n2\n1\n1 5\n'), 5, /a variable of function 0 is 5, more than 0/);
  fails(readUai('BAYES\n1\n2\n1\n1 0\n2\n0.5 0.5\n7\n'), 8, /unexpected '7' after the last table/);
});

test('huge declared sizes are refused from the declarations, before any table is allocated', () => {
  // three variables of 2^20 states: a scope of all three would need 2^60 entries
  const big = 2 ** 20;
  const many = `BAYES\n3\n${big} ${big} ${big}\n3\n1 0\n1 1\n3 0 1 2\n`;
  fails(readUai(many), 3, /the variables have 3145728 states in all, more than the file has entries for/);
  // a table over declared cardinalities beyond the budget (2^24 entries), with the states there to count
  const states = (n: number) => Array.from({ length: n }, (_, i) => `"s${i}"`).join(' ');
  const net =
    `node A { states = (${states(4096)}); }\nnode B { states = (${states(4096)}); }\n` +
    `node C { states = (${states(16)}); }\npotential (A) { data = (1); }\npotential (C | A B) { data = (1); }\n`;
  fails(readHuginNet(net), 5, /the table of 'C' needs 268,435,456 entries, over the budget of 16,777,216/);
  fails(readUai('BAYES\n999999999999\n2\n'), 2, /declares 999999999999 variables but has too few numbers for them/);
  fails(readUai(`BAYES\n1\n${2 ** 21}\n`), 3, /more than 1048576/);
  const bare = states(4096).replace(/"/g, '');
  const variables = [0, 1, 2].map((i) => `variable V${i} { type discrete [ 4096 ] { ${bare} }; }`);
  const wide = `network n {}\n${variables.join('\n')}\n` + 'probability ( V2 | V0, V1 ) { default 1; }\n';
  const r = readBif(wide);
  assert.ok('error' in r, 'BIF refuses the table');
  assert.match(r.error.message, /the table of 'V2' needs 68,719,476,736 entries, over the budget of 16,777,216/);
  assert.equal(r.error.line, 5);
});

test('the budgets a host passes: one table, and all the tables of a network together', () => {
  const uai = fixture('asia.uai'); // 8 tables, 36 entries, the largest 8
  const tight = {
    maxTableEntries: 4,
    maxTotalEntries: 1000,
    maxSamples: 1,
    memoryBytes: 1,
    maxDeclarations: 1e6,
    maxClasses: 1000,
  };
  fails(readUai(uai, tight), 10, /function 5 needs 8 entries, over the budget of 4/);
  const total = {
    maxTableEntries: 8,
    maxTotalEntries: 20,
    maxSamples: 1,
    memoryBytes: 1,
    maxDeclarations: 1e6,
    maxClasses: 1000,
  };
  fails(readUai(uai, total), 5, /the network \(all its tables\) needs 36 entries, over the budget of 20/);
  fails(readNetworkText('a.uai', uai, total), 5, /over the budget of 20/);
  const hugin = fixture('asia-hugin.net');
  fails(readHuginNet(hugin, total), 109, /the network \(all its tables\) needs 36 entries, over the budget of 20/);
  fails(readXmlBif(fixture('asia-weka.xml'), total), 73, /the network \(all its tables\) needs 36 entries/);
  fails(readXdsl(fixture('asia-genie.xdsl'), total), 8, /the network \(all its tables\) needs 36 entries/);
  assert.equal(
    ok(
      readUai(uai, {
        maxTableEntries: 8,
        maxTotalEntries: 36,
        maxSamples: 1,
        memoryBytes: 1,
        maxDeclarations: 1e6,
        maxClasses: 1000,
      }),
    ).variables.length,
    8,
  );
});

test('XMLBIF errors point at the line: bad numbers, wrong counts, unknown names, tags, decision nodes', () => {
  const head =
    '<?xml version="1.0"?>\n<BIF VERSION="0.3">\n<NETWORK>\n<NAME>n</NAME>\n' +
    '<VARIABLE TYPE="nature"><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>\n';
  const tail = '</NETWORK>\n</BIF>\n';
  const good = ok(readXmlBif(`${head}<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE></DEFINITION>\n${tail}`));
  assert.equal(good.cpts[0]!.table[1], 0.5);
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR>\n<TABLE>0.5\n0.5\nabc</TABLE></DEFINITION>\n${tail}`),
    7,
    /has 3 probabilities, expected 2/,
  );
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR>\n<TABLE>0.5\nabc</TABLE></DEFINITION>\n${tail}`),
    8,
    /expected a probability, found 'abc'/,
  );
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR>\n<GIVEN>Z</GIVEN><TABLE>1 0</TABLE></DEFINITION>\n${tail}`),
    7,
    /unknown variable 'Z'/,
  );
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR>\n<TABLE>1 0</TABLE></DEFINTION>\n${tail}`),
    7,
    /<\/DEFINTION> closes <DEFINITION> \(opened on line 6\)/,
  );
  fails(readXmlBif(`${head}${tail}`), 5, /variable 'A' has no table/);
  fails(
    readXmlBif(`${head}<VARIABLE TYPE="decision"><NAME>D</NAME></VARIABLE>\n${tail}`),
    6,
    /'D' is a decision variable/,
  );
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE>\n${tail}`),
    7,
    /<\/NETWORK> closes <DEFINITION>/,
  );
  fails(
    readXmlBif(`${head}<DEFINITION><FOR>A</FOR><TABLE>1 &bogus; 0</TABLE></DEFINITION>\n${tail}`),
    6,
    /unknown entity '&bogus;'/,
  );
  fails(readXmlBif('<?xml version="1.0"?>\n<smile id="x"/>'), 2, /expected an XMLBIF file/);
  fails(readXmlBif('<BIF>\n<NETWORK>\n<NAME>n</NAME>\n'), 4, /<NETWORK> \(line 2\) is not closed/);
  fails(readXmlBif(''), 1, /no XML element/);
  // entities and CDATA in names
  const named = ok(
    readXmlBif(
      '<BIF><NETWORK><NAME>a &amp; b</NAME><VARIABLE><NAME>x&lt;1</NAME>' +
        '<OUTCOME><![CDATA[<0]]></OUTCOME><OUTCOME>&#8805;0</OUTCOME></VARIABLE>' +
        '<DEFINITION><FOR>x&lt;1</FOR><TABLE>0.5 0.5</TABLE></DEFINITION></NETWORK></BIF>',
    ),
  );
  assert.equal(named.name, 'a & b');
  assert.deepEqual(named.variables, [{ name: 'x<1', states: ['<0', '≥0'] }]);
  assert.deepEqual(ok(readXmlBif(writeXmlBif(named))).variables, named.variables);
});

test('Hugin NET errors point at the line; continuous, decision and expression tables are refused by name', () => {
  const nodes = 'net\n{\n}\nnode A\n{\n    states = ("a" "b");\n}\n';
  fails(
    readHuginNet(`${nodes}potential (A)\n{\n    data = (0.5\n 0.2 0.3);\n}\n`),
    10,
    /the data of 'A' has 3 numbers, expected 2/,
  );
  fails(readHuginNet(`${nodes}potential (A)\n{\n    data = (0.5\n x);\n}\n`), 11, /expected a probability, found 'x'/);
  fails(readHuginNet(`${nodes}potential (A | B)\n{\n    data = (0.5 0.5);\n}\n`), 8, /unknown variable 'B'/);
  fails(readHuginNet(`${nodes}potential (A)\n{\n    data = (0.5 0.5)\n}\n`), 11, /expected ';', found '}'/);
  fails(readHuginNet(`${nodes}`), 4, /variable 'A' has no table/);
  fails(
    readHuginNet(`${nodes}continuous node X\n{\n}\n`),
    8,
    /'X' is a continuous node: only discrete chance nodes are read/,
  );
  fails(readHuginNet(`${nodes}decision node D\n{\n    states = ("go" "stay");\n}\n`), 8, /'D' is a decision node/);
  fails(readHuginNet(`${nodes}utility U\n{\n}\n`), 8, /'U' is a utility node/);
  fails(
    readHuginNet(`${nodes}potential (A)\n{\n    model_nodes = ();\n    model_data = ( Normal (0, 1) );\n}\n`),
    10,
    /given by expressions \(model_data\)/,
  );
  fails(readHuginNet(`${nodes}node B\n{\n    label = "B";\n}\n`), 8, /node 'B' has no 'states/);
  const potentialA = 'potential (A)\n{\n    data = (0.5 0.5);\n}\n';
  fails(readHuginNet(`${nodes}${potentialA}${potentialA}`), 12, /a second table for 'A'/);
  fails(readHuginNet('% only a comment\n'), 1, /no nodes/);
  fails(readHuginNet(`${nodes}node C\n{\n    label = "unclosed;\n}\n`), 10, /unclosed string/);
  // escaped quotes in strings, and a node name that is not an identifier written with a label
  const net = ok(
    readHuginNet(
      `${nodes}node Q\n{\n    states = ("say \\"hi\\"" "b");\n}\n` +
        'potential (A) { data = (1 0); }\n' +
        'potential (Q | A) { data = ((1 0) (0 1)); }\n',
    ),
  );
  assert.deepEqual(net.variables[1]!.states, ['say "hi"', 'b']);
  assert.deepEqual(ok(readHuginNet(writeHuginNet(net))).variables, net.variables);
  const odd = {
    ...net,
    variables: [
      { name: 'A', states: ['a', 'b'] },
      { name: '12 x', states: ['say "hi"', 'b'] },
    ],
  };
  const written = writeHuginNet(odd);
  assert.match(written, /node N12_x\n\{\n {4}label = "12 x";/);
  assert.deepEqual(
    ok(readHuginNet(written)).variables.map((v) => v.name),
    ['A', 'N12_x'],
  );
});

test('GeNIe XDSL: deterministic nodes; noisy-MAX and decision nodes refused with their line', () => {
  const head =
    '<?xml version="1.0"?>\n<smile version="1.0" id="g">\n<nodes>\n' +
    '<cpt id="A"><state id="a"/><state id="b"/>' +
    '<probabilities>0.3 0.7</probabilities></cpt>\n';
  fails(readXdsl(`${head}<noisymax id="N">\n</noisymax>\n</nodes>\n</smile>`), 5, /'N' is a <noisymax> node/);
  fails(
    readXdsl(`${head}<decision id="D"><state id="x"/></decision>\n</nodes>\n</smile>`),
    5,
    /'D' is a <decision> node/,
  );
  fails(
    readXdsl(
      `${head}<deterministic id="D"><state id="x"/><state id="y"/><parents>A</parents>\n` +
        '<resultingstates>x z</resultingstates></deterministic>\n</nodes>\n</smile>',
    ),
    6,
    /'z' is not a state of 'D'/,
  );
  const b = '<cpt id="B"><state id="x"/><parents>A</parents>\n<probabilities>1 1 1</probabilities></cpt>';
  fails(readXdsl(`${head}${b}\n</nodes></smile>`), 6, /has 3 probabilities, expected 2/);
});

test('writers refuse unknown entries, which only BIF and .bayes can mark', () => {
  const net = ok(
    readBif('network n {}\nvariable A { type discrete [ 2 ] { a, b }; }\n' + 'probability ( A ) { table -1, -1; }'),
  );
  for (const format of writable) assert.throws(() => format.write!(net), UnwritableNetworkError);
  assert.throws(() => writeUai(net), /P\(A \| …\) has unknown entries, which UAI cannot mark/);
});

test('the registry chooses by extension, without regard to case, and names what it reads', () => {
  assert.equal(networkFormatOf('/x/Y.NET')?.name, 'Hugin NET');
  assert.equal(networkFormatOf('c:\\nets\\alarm.xmlbif')?.name, 'XMLBIF');
  assert.equal(networkFormatOf('a.xml')?.name, 'XMLBIF');
  assert.equal(networkFormatOf('a.uai')?.name, 'UAI');
  assert.equal(networkFormatOf('a.xdsl')?.name, 'GeNIe XDSL');
  assert.equal(networkFormatOf('a.bif')?.name, 'BIF');
  assert.equal(networkFormatOf('bif'), undefined);
  assert.equal(networkFormatOf('a.csv'), undefined);
  const r = readNetworkText('a.csv', 'x');
  assert.ok('error' in r);
  assert.match(
    r.error.message,
    /networks are read from BIF \(\.bif\), XMLBIF \(\.xml, \.xmlbif\), Hugin NET \(\.net\)/,
  );
  assert.equal(ok(readNetworkText('asia.net', fixture('asia-compact.net'))).variables.length, 2);
});

test('damaged files never throw: each reader answers a network or an error on a line of the file', () => {
  const rng = createRng(17);
  const cases: [string, (text: string) => NetworkReadResult][] = [
    ['asia-hugin.net', readHuginNet],
    ['asia-class.net', readHuginNet],
    ['asia-weka.xml', readXmlBif],
    ['survey-pgmpy.xml', readXmlBif],
    ['asia.uai', readUai],
    ['competition.uai', readUai],
    ['asia-genie.xdsl', readXdsl],
  ];
  const noise = [
    '(',
    ')',
    '{',
    '}',
    '<',
    '>',
    '/',
    '"',
    ';',
    '=',
    '|',
    '%',
    '&',
    '\n',
    '-1',
    '1e999',
    '99999999999',
    ' ',
    'x',
  ];
  let errors = 0;
  for (const [name, read] of cases) {
    const text = fixture(name);
    const lines = text.split('\n').length;
    for (let i = 0; i < 300; i++) {
      const at = rng.int(text.length);
      const end = Math.min(text.length, at + rng.int(40));
      const damaged = [
        () => text.slice(0, at),
        () => text.slice(0, at) + text.slice(end),
        () => text.slice(0, end) + text.slice(at),
        () => text.slice(0, at) + noise[rng.int(noise.length)]! + text.slice(at + 1),
      ][rng.int(4)]!();
      let r: NetworkReadResult;
      try {
        r = read(damaged);
      } catch (e) {
        assert.fail(`${name}, damage ${i} at ${at}: threw ${(e as Error).stack}`);
      }
      if ('error' in r) {
        errors++;
        const most = Math.max(lines, damaged.split('\n').length);
        assert.ok(r.error.line >= 1 && r.error.line <= most, `${name}: line ${r.error.line} of ${most}`);
      }
    }
  }
  assert.ok(errors > 1000, `only ${errors} of 2100 damaged files were refused`);
});

test('Hugin numbered and interval nodes without labels take their states from state_values', () => {
  const net = ok(
    readHuginNet(
      'net\n{\n}\nnode N\n{\n    states = ("" "" "");\n    subtype = number;\n    state_values = (1 2 5);\n}\n' +
        'node I\n{\n    subtype = interval;\n    state_values = (-infinity 0 10 infinity);\n}\n' +
        'potential (N) { data = (0.2 0.3 0.5); }\npotential (I | N) { data = ((1 0 0) (0 1 0) (0 0 1)); }\n',
    ),
  );
  assert.deepEqual(net.variables, [
    { name: 'N', states: ['1', '2', '5'] },
    { name: 'I', states: ['[-infinity, 0)', '[0, 10)', '[10, infinity)'] },
  ]);
  fails(
    readHuginNet('node L\n{\n    states = ("a" "a");\n}\npotential (L) { data = (1 0); }\n'),
    1,
    /lists state 'a' twice/,
  );
});
