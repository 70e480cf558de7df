/** `bayes convert` and `bayes marginals` read networks from .bayes models as well as BIF. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { readBif } from '../../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { loadBif } from '../../support/networks.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';

/** Same variables (states), parents and tables, matched by name: the order may differ. */
function assertSameNetwork(actual: BayesianNetwork, expected: BayesianNetwork): void {
  const named = (net: BayesianNetwork) =>
    new Map(
      net.variables.map((v, i) => [
        v.name,
        {
          states: v.states,
          parents: net.cpts[i]!.parents.map((p) => net.variables[p]!.name),
          table: Array.from(net.cpts[i]!.table),
        },
      ]),
    );
  const a = named(actual),
    e = named(expected);
  assert.deepEqual([...a.keys()].sort(), [...e.keys()].sort());
  for (const [name, v] of e) assert.deepEqual(a.get(name), v, name);
}

for (const name of ['alarm', 'child', 'insurance']) {
  test(`${name}: BIF → .bayes → BIF is the same network, number for number`, async (t) => {
    const file = sharedFile('bif', `${name}.bif`);
    const net = loadBif(name);
    if (!file || !net) return t.skip(NO_SHARED);
    const dir = mkdtempSync(join(tmpdir(), 'bayes-roundtrip-'));
    try {
      const io = capture();
      assert.equal(await main(['convert', file, join(dir, `${name}.bayes`)], io), 0, io.stderr);
      assert.equal(await main(['convert', join(dir, `${name}.bayes`), join(dir, `${name}.bif`)], io), 0, io.stderr);
      const back = readBif(readFileSync(join(dir, `${name}.bif`), 'utf8'));
      assert.ok('network' in back, JSON.stringify(back));
      assertSameNetwork(back.network, net);
      assert.equal(back.network.name, name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('bayes marginals reads a .bayes network by name, with evidence', async () => {
  const io = capture();
  const forest = join(repoRoot, 'examples', 'forest.bayes');
  assert.equal(
    await main(['marginals', forest, '--network', 'Forest', '-e', 'Thunder=true', '--json'], io),
    0,
    io.stderr,
  );
  const out = JSON.parse(io.stdout);
  assert.equal(out.network, 'Forest');
  // The file's only network is read without --network, and gives the same answer.
  const again = capture();
  assert.equal(await main(['marginals', forest, '-e', 'Thunder=true', '--json'], again), 0, again.stderr);
  const { timings: _, ...first } = out; // wall times differ between runs
  const { timings: __, ...second } = JSON.parse(again.stdout);
  assert.deepEqual(second, first);
  // Enumerated by hand over the 2^6 joint: P(Storm | Thunder) = .3·(.7·.95 + .3·.02) / P(Thunder).
  const pThunder = 0.3 * (0.7 * 0.95 + 0.3 * 0.02) + 0.7 * (0.05 * 0.95 + 0.95 * 0.02);
  assert.ok(Math.abs(out.marginals.Storm.true - (0.3 * (0.7 * 0.95 + 0.3 * 0.02)) / pThunder) < 1e-12);
});

test('a .bayes network that does not check, or is ambiguous, is an error with its place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-net-'));
  try {
    const broken = join(dir, 'broken.bayes');
    writeFileSync(broken, 'network N {\n  variable A : bool\n  P(A) = 1.5\n}\n');
    let io = capture();
    assert.equal(await main(['marginals', broken], io), 1);
    assert.match(io.stderr, /broken\.bayes:3:\d+: error: .*1\.5/);
    const two = join(dir, 'two.bayes');
    writeFileSync(
      two,
      'network N {\n  variable A : bool\n  P(A) = 0.5\n}\nnetwork M {\n  variable B : bool\n  P(B) = 0.5\n}\n',
    );
    io = capture();
    assert.equal(await main(['convert', two, '-'], io), 1);
    assert.match(io.stderr, /choose one with --network NAME/);
    io = capture();
    assert.equal(await main(['convert', two, '-', '--network', 'M'], io), 0, io.stderr);
    assert.match(io.stdout, /^network M \{/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('child: BIF → .bayes → .bayes is a fixed point, and .bayes → UAI numbers the variables as BIF → UAI', async (t) => {
  const file = sharedFile('bif', 'child.bif');
  if (!file) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-order-'));
  try {
    const io = capture();
    const at = (f: string) => join(dir, f);
    for (const [input, output] of [
      [file, 'child.bayes'],
      [at('child.bayes'), 'again.bayes'],
      [file, 'fromBif.uai'],
      [at('child.bayes'), 'fromBayes.uai'],
    ] as const) {
      assert.equal(await main(['convert', input, at(output)], io), 0, io.stderr);
    }
    assert.equal(readFileSync(at('again.bayes'), 'utf8'), readFileSync(at('child.bayes'), 'utf8'));
    assert.equal(readFileSync(at('fromBayes.uai'), 'utf8'), readFileSync(at('fromBif.uai'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
