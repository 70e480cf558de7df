/**
 * `bayes convert` between every pair of formats, `bayes marginals` on every format and with a UAI
 * evidence file, and `import network N from "x.net"` (and .xml, .uai, .xdsl) in a model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { readBif } from '../../../server/src/model/bif.js';
import { readNetworkText } from '../../../server/src/model/networkFormats.js';
import type { BayesianNetwork, DiscreteVariable } from '../../../server/src/engine/network.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';
import { forwardSample } from '../../../server/src/engine/sampling/forwardSampling.js';
import { learnCpts } from '../../../server/src/engine/estimators/cptLearning.js';
import { createRng } from '../../../server/src/engine/random.js';
import { loadBif } from '../../support/networks.js';
import { toCsv } from '../../support/learning.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures/networks');

function read(file: string): BayesianNetwork {
  const r = readNetworkText(file, readFileSync(file, 'utf8'));
  if ('error' in r) assert.fail(`${file}:${r.error.line}: ${r.error.message}`);
  return r.network;
}

interface MarginalsOut {
  marginals: Record<string, Record<string, number>>;
  evidence: object;
}

async function marginalsJson(args: string[]): Promise<MarginalsOut> {
  const io = capture();
  assert.equal(await main(['marginals', ...args, '--json'], io), 0, io.stderr);
  return JSON.parse(io.stdout);
}

/** Variables X{i} with states s{k} renamed after `order[i]` (what a UAI file lost). */
function renamed(net: BayesianNetwork, order: DiscreteVariable[]): BayesianNetwork {
  const variables = net.variables.map((v) => {
    const m = /^X(\d+)$/.exec(v.name);
    const as = m ? order[Number(m[1])] : undefined;
    return as ? { name: as.name, states: v.states.map((s) => as.states[Number(s.slice(1))]!) } : v;
  });
  return { ...net, variables };
}

/** The same variables, states, parents and tables, matched by name (a .bayes model orders them parents first). */
function sameByName(actual: BayesianNetwork, expected: BayesianNetwork, what: string): void {
  const index = new Map(actual.variables.map((v, i) => [v.name, i]));
  assert.equal(actual.variables.length, expected.variables.length, what);
  expected.cpts.forEach((cpt, i) => {
    const v = expected.variables[i]!;
    const j = index.get(v.name);
    assert.ok(j !== undefined, `${what}: ${v.name} is missing`);
    assert.deepEqual(actual.variables[j]!.states, v.states, `${what}: states of ${v.name}`);
    const parents = actual.cpts[j]!.parents.map((q) => actual.variables[q]!.name);
    assert.deepEqual(
      parents,
      cpt.parents.map((q) => expected.variables[q]!.name),
      `${what}: parents of ${v.name}`,
    );
    assert.deepEqual(Array.from(actual.cpts[j]!.table), Array.from(cpt.table), `${what}: table of ${v.name}`);
  });
}

async function asBif(file: string, dir: string): Promise<string> {
  const out = join(dir, `${file.split('/').pop()}.ref.bif`);
  const io = capture();
  assert.equal(await main(['convert', file, out], io), 0, io.stderr);
  return out;
}

test('bayes convert goes between every pair of .bayes, BIF, XMLBIF, NET and UAI with the same tables', async (t) => {
  const file = sharedFile('bif', 'alarm.bif');
  if (!file) return t.skip(NO_SHARED);
  const original = readBif(readFileSync(file, 'utf8'));
  assert.ok('network' in original);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-formats-'));
  try {
    const extensions = ['.bayes', '.bif', '.xml', '.net', '.uai'];
    for (const from of extensions) {
      const source = join(dir, `source${from}`);
      let io = capture();
      assert.equal(await main(['convert', file, source], io), 0, io.stderr);
      for (const to of extensions) {
        const target = join(dir, `from-${from.slice(1)}${to}`);
        io = capture();
        assert.equal(await main(['convert', source, target], io), 0, `${from} → ${to}: ${io.stderr}`);
        const back = join(dir, `back-${from.slice(1)}-${to.slice(1)}.bif`);
        io = capture();
        assert.equal(await main(['convert', target, back], io), 0, io.stderr);
        // UAI keeps positions, not names: X{i} is variable i of the network that was written as UAI
        const named =
          from === '.uai' ? original.network.variables : to === '.uai' ? read(await asBif(source, dir)).variables : [];
        sameByName(renamed(read(back), named), original.network, `${from} → ${to}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes marginals reads every format as BIF gives it; UAI evidence files line up by index', async (t) => {
  const file = sharedFile('bif', 'asia.bif');
  if (!file) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-formats-'));
  try {
    const reference = await marginalsJson([file, '-e', 'xray=yes', '-e', 'smoke=no']);
    for (const name of ['asia-hugin.net', 'asia-weka.xml', 'asia-genie.xdsl']) {
      const out = await marginalsJson([join(fixtures, name), '-e', 'xray=yes', '-e', 'smoke=no']);
      for (const [v, dist] of Object.entries(reference.marginals)) {
        for (const [s, p] of Object.entries(dist)) {
          assert.ok(Math.abs(out.marginals[v]![s]! - p) < 1e-15, `${name} ${v}=${s}`);
        }
      }
    }
    // convert with evidence: asia.uai + asia.uai.evid, then marginals from the pair
    const uai = join(dir, 'asia.uai');
    const io = capture();
    assert.equal(await main(['convert', file, uai, '-e', 'xray=yes', '-e', 'smoke=no'], io), 0, io.stderr);
    assert.equal(readFileSync(`${uai}.evid`, 'utf8'), '2 6 0 2 1\n'); // xray is variable 6, smoke 2; no = state 1
    const fromUai = await marginalsJson([uai, '--evidence-file', `${uai}.evid`]);
    assert.deepEqual(fromUai.evidence, { X6: 's0', X2: 's1' });
    const names = Object.keys(reference.marginals);
    names.forEach((v, i) =>
      Object.values(reference.marginals[v]!).forEach((p, s) => {
        assert.ok(Math.abs(fromUai.marginals[`X${i}`]![`s${s}`]! - p) < 1e-15, `${v} = X${i}`);
      }),
    );
    // the evidence file also works on the named network, by variable order
    const named = await marginalsJson([file, '--evidence-file', `${uai}.evid`]);
    assert.deepEqual(named.evidence, { xray: 'yes', smoke: 'no' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bad files are reported as file:line:1 with the reader's message; bad evidence files too", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-formats-'));
  try {
    const bad = join(dir, 'bad.net');
    const node = 'node A\n{\n    states = ("a" "b");\n}\n';
    writeFileSync(bad, `net\n{\n}\n${node}potential (A)\n{\n    data = (0.5 0.2 0.3);\n}\n`);
    let io = capture();
    assert.equal(await main(['convert', bad, join(dir, 'out.bif')], io), 1);
    assert.equal(io.stderr, `${bad}:10:1: error: the data of 'A' has 3 numbers, expected 2\n`);
    const markov = join(dir, 'm.uai');
    writeFileSync(markov, readFileSync(join(fixtures, 'competition.uai'), 'utf8').replace('BAYES', 'MARKOV'));
    io = capture();
    assert.equal(await main(['marginals', markov], io), 1);
    assert.match(io.stderr, /m\.uai:1:1: error: this is a Markov network \(MARKOV\): only Bayesian networks/);
    const evid = join(dir, 'bad.evid');
    writeFileSync(evid, '1\n5 0\n');
    io = capture();
    assert.equal(await main(['marginals', join(fixtures, 'competition.uai'), '--evidence-file', evid], io), 1);
    assert.match(io.stderr, /bad\.evid:2:1: error: variable 5 does not exist: the network has 3/);
    io = capture();
    assert.equal(await main(['convert', join(fixtures, 'asia-genie.xdsl'), join(dir, 'a.xdsl')], io), 2);
    assert.match(io.stderr, /cannot write '.*a\.xdsl'/);
    io = capture();
    assert.equal(await main(['convert', join(fixtures, 'asia.uai'), join(dir, 'a.net'), '-e', 'X0=s0'], io), 2);
    assert.match(io.stderr, /--evidence is written only beside a \.uai OUT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('import network N from "x.net" | "x.xml" | "x.uai" | "x.xdsl": checked names, queries run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-formats-'));
  try {
    for (const f of ['asia-hugin.net', 'asia-weka.xml', 'asia.uai', 'asia-genie.xdsl']) {
      copyFileSync(join(fixtures, f), join(dir, f));
    }
    const model = join(dir, 'imports.bayes');
    writeFileSync(
      model,
      [
        'import network Hugin from "asia-hugin.net"',
        'import network Weka from "asia-weka.xml"',
        'import network Uai from "asia.uai"',
        'import network Genie from "asia-genie.xdsl"',
        // P(tub = yes) = 0.01 × 0.05 + 0.99 × 0.01 = 0.0104, in every file
        'expect P(tub = yes) in Hugin ≈ 0.0104 ± 1e-12',
        'expect P(tub = yes) in Weka ≈ 0.0104 ± 1e-12',
        'expect P(X1 = s0) in Uai ≈ 0.0104 ± 1e-12',
        'expect P(tub = yes) in Genie ≈ 0.0104 ± 1e-12',
        // P(either = yes | tub = no, lung = yes) = 1 whatever the parent order of the file
        'expect P(either = yes | tub = no, lung = yes) in Hugin ≈ 1 ± 1e-12',
        '',
      ].join('\n'),
    );
    let io = capture();
    assert.equal(await main(['run', model], io), 0, io.stderr + io.stdout);
    const typo = join(dir, 'typo.bayes');
    writeFileSync(typo, 'import network Hugin from "asia-hugin.net"\nquery P(tubb) in Hugin\n');
    io = capture();
    assert.equal(await main(['check', typo], io), 1);
    assert.match(io.stdout + io.stderr, /typo\.bayes:2:\d+: error: .*tubb/);
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, '<BIF VERSION="0.3">\n<NETWORK>\n<NAME>n</NAME>\n</BIF>\n');
    const importsBroken = join(dir, 'broken.bayes');
    writeFileSync(importsBroken, 'import network B from "broken.xml"\n');
    io = capture();
    assert.equal(await main(['check', importsBroken], io), 1);
    const message = /cannot read network "broken\.xml": line 4: <\/BIF> closes <NETWORK> \(opened on line 2\)/;
    assert.match(io.stdout + io.stderr, message);
    writeFileSync(join(dir, 'n.txt'), 'x\n');
    writeFileSync(importsBroken, 'import network N from "n.txt"\n');
    io = capture();
    assert.equal(await main(['check', importsBroken], io), 1);
    assert.match(
      io.stdout + io.stderr,
      /broken\.bayes:1:23: error: cannot read network "n\.txt": networks are read from BIF/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bayes learn --out writes the format of its extension: the counting CPTs read back', async (t) => {
  const bif = sharedFile('bif', 'asia.bif');
  const net = loadBif('asia');
  if (!bif || !net) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-formats-'));
  try {
    const data = forwardSample(net, 500, createRng(3));
    const csv = join(dir, 'asia.csv');
    writeFileSync(csv, toCsv(data));
    const expected = learnCpts(net, data);
    for (const ext of ['.net', '.uai', '.xml']) {
      const out = join(dir, `learned${ext}`);
      const io = capture();
      assert.equal(await main(['learn', bif, '--data', csv, '--out', out], io), 0, io.stderr);
      const back = read(out);
      back.cpts.forEach((cpt, i) =>
        assert.deepEqual([...cpt.table], [...expected.cpts[i]!.table], `${ext}: table ${i}`),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
