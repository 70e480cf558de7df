/**
 * Soft and virtual evidence on ALARM through `bayes marginals` and `bayes run`, against an
 * independent computation from hard-evidence answers only: with soft findings q1, q2 on X1, X2,
 * virtual evidence λ on Z and hard evidence e,
 *   m(x1, x2) ∝ Σ_z λ(z) P(x1, x2, z | e),  r = m fitted to the marginals q1, q2 (IPF on 4 cells),
 *   P'(Y) = Σ_{x1, x2, z} r(x1, x2) · λ(z) P(z | x1, x2, e) / Σ_z' λ(z') P(z' | x1, x2, e) · P(Y | x1, x2, z, e).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { posteriorQuery } from '../../../server/src/engine/inference/marginals.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { loadBif } from '../../support/networks.js';
import { NO_SHARED, sharedData, sharedFile } from '../../support/shared.js';

const HARD = { HRBP: 'HIGH' };
const SOFT = { HYPOVOLEMIA: [0.35, 0.65], LVFAILURE: [0.2, 0.8] };
const VIRTUAL = { CVP: [0.2, 0.5, 1] };

/** P(query | evidence) with hard evidence only, over the query's joint states. */
function hardQuery(net: BayesianNetwork, query: number[], evidence: Map<number, number>): Float64Array {
  const answer = posteriorQuery(net, query, evidence, { method: 'exact' });
  if (!answer.ok) throw new Error(answer.message);
  return answer.factor.values;
}

/** The reference P'(query) over the query's joint states (first variable slowest). */
function reference(net: BayesianNetwork, query: number[]): Float64Array {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const hard = new Map(
    Object.entries(HARD).map(([k, s]) => {
      const v = index.get(k)!;
      return [v, net.variables[v]!.states.indexOf(s)];
    }),
  );
  const [x1, x2] = Object.keys(SOFT).map((k) => index.get(k)!);
  const [q1, q2] = Object.values(SOFT);
  const z = index.get('CVP')!;
  const lambda = VIRTUAL.CVP;
  const joint = hardQuery(net, [x1!, x2!, z], hard); // 2 × 2 × 3
  // m(a, b) ∝ Σ_z λ(z) P(a, b, z | e), then IPF to the two soft marginals.
  const m = Float64Array.from({ length: 4 }, (_, ab) => lambda.reduce((s, l, c) => s + l * joint[ab * 3 + c]!, 0));
  const total = m.reduce((a, b) => a + b, 0);
  const r = m.map((x) => x / total);
  for (let sweep = 0; sweep < 2000; sweep++) {
    for (let a = 0; a < 2; a++) {
      const row = r[2 * a]! + r[2 * a + 1]!;
      r[2 * a]! *= q1![a]! / row;
      r[2 * a + 1]! *= q1![a]! / row;
    }
    for (let b = 0; b < 2; b++) {
      const col = r[b]! + r[2 + b]!;
      r[b]! *= q2![b]! / col;
      r[2 + b]! *= q2![b]! / col;
    }
  }
  let out: Float64Array | undefined;
  for (let a = 0; a < 2; a++) {
    for (let b = 0; b < 2; b++) {
      const ab = a * 2 + b;
      const w = lambda.map((l, c) => l * joint[ab * 3 + c]!);
      const wz = w.reduce((s, x) => s + x, 0);
      for (let c = 0; c < 3; c++) {
        if (w[c] === 0) continue;
        const p = hardQuery(net, query, new Map([...hard, [x1!, a], [x2!, b], [z, c]]));
        out ??= new Float64Array(p.length);
        for (let i = 0; i < p.length; i++) out[i]! += r[ab]! * (w[c]! / wz) * p[i]!;
      }
    }
  }
  return out!;
}

test('bayes marginals --soft --likelihood -e on ALARM matches the independent computation to 1e-9', async (t) => {
  const file = sharedFile('bif', 'alarm.bif');
  const net = loadBif('alarm');
  if (!file || !net) return t.skip(NO_SHARED);
  const io = capture();
  const args = [
    'marginals',
    file,
    '-e',
    'HRBP=HIGH',
    '--soft',
    'HYPOVOLEMIA=0.35,0.65',
    '--soft',
    'LVFAILURE=0.2,0.8',
    '--likelihood',
    'CVP=0.2,0.5,1',
    '--json',
  ];
  assert.equal(await main(args, io), 0, io.stderr);
  const out = JSON.parse(io.stdout);
  assert.deepEqual(out.soft, SOFT);
  assert.deepEqual(out.likelihood, VIRTUAL);
  assert.equal(Object.keys(out.marginals).length, 37, 'no virtual-evidence node in the output');
  let worst = 0;
  net.variables.forEach((v, i) => {
    const expected = reference(net, [i]);
    v.states.forEach((s, j) => {
      worst = Math.max(worst, Math.abs(out.marginals[v.name][s] - expected[j]!));
    });
  });
  assert.ok(worst < 1e-9, `largest difference ${worst}`);
  assert.ok(Math.abs(out.marginals.HYPOVOLEMIA.TRUE - 0.35) < 1e-10);
  assert.ok(Math.abs(out.marginals.LVFAILURE.TRUE - 0.2) < 1e-10);
});

test('bayes run: observe … in Alarm with soft and virtual findings matches the independent computation', async (t) => {
  const file = sharedFile('bif', 'alarm.bif');
  const net = loadBif('alarm');
  if (!file || !net) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-soft-'));
  try {
    const model = join(dir, 'alarm_soft.bayes');
    writeFileSync(
      model,
      [
        `import network Alarm from ${JSON.stringify(file)}`,
        'observe HRBP = HIGH in Alarm',
        'observe HYPOVOLEMIA ~ { TRUE: 0.35, FALSE: 0.65 }, LVFAILURE ~ { TRUE: 20%, FALSE: 80% } in Alarm',
        'query P(CO) in Alarm given CVP ~ likelihood { LOW: 0.2, NORMAL: 0.5, HIGH: 1 }',
        'query P(BP | CVP ~ likelihood { LOW: 2, NORMAL: 5, HIGH: 10 }) in Alarm using variable_elimination',
        'query P(HISTORY, PRESS) in Alarm given CVP ~ likelihood { LOW: 0.2, NORMAL: 0.5, HIGH: 1 }',
        'query P(HYPOVOLEMIA) in Alarm given CVP ~ likelihood { LOW: 0.2, NORMAL: 0.5, HIGH: 1 }',
        '',
      ].join('\n'),
    );
    const io = capture();
    assert.equal(await main(['run', model, '--json', '--data-root', sharedData], io), 0, io.stderr + io.stdout);
    const out = JSON.parse(io.stdout);
    const probabilities = out.results.filter((r: { kind: string }) => r.kind === 'probability');
    assert.equal(probabilities.length, 4);
    const index = new Map(net.variables.map((v, i) => [v.name, i]));
    for (const result of probabilities) {
      const expected = reference(
        net,
        result.variables.map((v: string) => index.get(v)!),
      );
      result.table.forEach((row: { p: number }, i: number) => {
        assert.ok(Math.abs(row.p - expected[i]!) < 1e-9, `${result.source}: ${row.p} vs ${expected[i]}`);
      });
      assert.deepEqual(result.evidence, HARD);
      assert.equal(result.findings.HYPOVOLEMIA.kind, 'soft');
      assert.equal(result.findings.CVP.kind, 'likelihood');
    }
    assert.ok(Math.abs(probabilities[3].table[0].p - 0.35) < 1e-10);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
