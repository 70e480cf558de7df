/**
 * `npm run test:slow`: `bayes marginals` on the small bnlearn networks, through the BIF file and
 * through its `bayes convert`ed .bayes, against brute-force enumeration of the joint, for seeded
 * evidence sets of every kind: forward-sampled (possible), uniformly drawn (often impossible),
 * nearly every variable observed, roots or leaves only, an observation repeated, and virtual
 * evidence. Exact answers agree to 1e-9; impossible evidence is exit 1 with "evidence has
 * probability 0" (never NaN); the two paths agree to 1e-12.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../server/src/cli.js';
import { topologicalOrder, type BayesianNetwork } from '../../server/src/engine/network.js';
import { createRng, type Rng } from '../../server/src/engine/random.js';
import { capture } from '../support/cli.js';
import { enumerate, evidenceOf, loadBif } from '../support/networks.js';
import { NO_SHARED, sharedFile } from '../support/shared.js';

interface Case {
  evidence: [string, string][];
  likelihood?: [string, number[]];
}

function forward(net: BayesianNetwork, rng: Rng): number[] {
  const x = new Array<number>(net.variables.length).fill(0);
  for (const v of (topologicalOrder(net) as { order: number[] }).order) {
    const { parents, table } = net.cpts[v]!;
    const k = net.variables[v]!.states.length;
    const row = parents.reduce((r, p) => r * net.variables[p]!.states.length + x[p]!, 0);
    let u = rng.next();
    let s = 0;
    while (s < k - 1 && (u -= table[row * k + s]!) >= 0) s++;
    x[v] = s;
  }
  return x;
}

function cases(net: BayesianNetwork, seed: number): Case[] {
  const rng = createRng(seed);
  const n = net.variables.length;
  const hasChild = new Set(net.cpts.flatMap((c) => c.parents));
  const pick = (keep: (v: number) => boolean, x: number[]) =>
    net.variables.flatMap((v, i) => (keep(i) ? [[v.name, v.states[x[i]!]!] as [string, string]] : []));
  const out: Case[] = [{ evidence: [] }];
  for (let i = 0; i < 14; i++) {
    const x = forward(net, rng);
    const uniform = net.variables.map((v) => rng.int(v.states.length));
    const free = rng.int(n);
    const kinds: Case[] = [
      { evidence: pick(() => rng.next() < 0.3, x) },
      { evidence: pick(() => rng.next() < 0.3, uniform) },
      { evidence: pick((v) => v !== free, x) },
      { evidence: pick((v) => net.cpts[v]!.parents.length === 0, x) },
      { evidence: pick((v) => !hasChild.has(v), uniform) },
      { evidence: [...pick((v) => v === free, x), ...pick((v) => v === free, x)] },
      {
        evidence: pick((v) => v !== free && rng.next() < 0.2, x),
        likelihood: [net.variables[free]!.name, net.variables[free]!.states.map(() => rng.next())],
      },
    ];
    out.push(kinds[i % kinds.length]!);
  }
  return out;
}

/** P'(·) ∝ Σ_x λ(x) P(·, x | e) by enumeration, or undefined when P(e) (or P'(e)) is 0. */
function bruteForce(net: BayesianNetwork, c: Case): Float64Array[] | undefined {
  const hard = evidenceOf(net, Object.fromEntries(c.evidence));
  if (!c.likelihood) {
    const r = enumerate(net, hard);
    return r.pEvidence > 0 ? r.marginals : undefined;
  }
  const v = net.variables.findIndex((x) => x.name === c.likelihood![0]);
  const sums = net.variables.map((x) => new Float64Array(x.states.length));
  let total = 0;
  c.likelihood[1].forEach((lambda, s) => {
    const r = enumerate(net, new Map([...hard, [v, s]]));
    const w = lambda * r.pEvidence;
    if (!(w > 0)) return;
    total += w;
    r.marginals.forEach((m, u) => m.forEach((p, t) => (sums[u]![t]! += w * p)));
  });
  return total > 0 ? sums.map((m) => m.map((p) => p / total)) : undefined;
}

interface MarginalsJson {
  method: string;
  reason: string;
  marginals: Record<string, Record<string, number>>;
}

async function marginals(file: string, c: Case): Promise<{ code: number; stderr: string; json?: MarginalsJson }> {
  const args = ['marginals', file, '--json', ...c.evidence.flatMap(([k, s]) => ['-e', `${k}=${s}`])];
  if (c.likelihood) args.push('--likelihood', `${c.likelihood[0]}=${c.likelihood[1].join(',')}`);
  const io = capture();
  const code = await main(args, io);
  return { code, stderr: io.stderr, ...(code === 0 ? { json: JSON.parse(io.stdout) } : {}) };
}

for (const name of ['asia', 'cancer', 'earthquake', 'sachs', 'survey']) {
  test(`${name}: bayes marginals (BIF and converted .bayes) equals enumeration for 15 evidence sets`, async (t) => {
    const file = sharedFile('bif', `${name}.bif`);
    const net = loadBif(name);
    if (!file || !net) return t.skip(NO_SHARED);
    const dir = mkdtempSync(join(tmpdir(), 'bayes-differential-'));
    try {
      const bayes = join(dir, `${name}.bayes`);
      assert.equal(await main(['convert', file, bayes], capture()), 0);
      let impossible = 0;
      for (const c of cases(net, name.length)) {
        const what = JSON.stringify(c);
        const expected = bruteForce(net, c);
        const bif = await marginals(file, c);
        const converted = await marginals(bayes, c);
        if (!expected) {
          impossible++;
          for (const r of [bif, converted] as const) {
            assert.equal(r.code, 1, what);
            assert.match(r.stderr, /evidence has probability 0/, what);
          }
          continue;
        }
        assert.equal(bif.code, 0, `${what}: ${bif.stderr}`);
        assert.equal(converted.code, 0, `${what}: ${converted.stderr}`);
        const [a, b] = [bif.json!, converted.json!];
        assert.equal(a.method, 'exact');
        assert.match(a.reason, /^exact/);
        net.variables.forEach((v, i) =>
          v.states.forEach((s, j) => {
            const p = a.marginals[v.name]![s]!;
            assert.ok(Math.abs(p - expected[i]![j]!) <= 1e-9, `${what}: ${v.name}=${s} ${p} vs ${expected[i]![j]}`);
            assert.ok(Math.abs(b.marginals[v.name]![s]! - p) <= 1e-12, `${what}: .bayes ${v.name}=${s}`);
          }),
        );
      }
      assert.ok(impossible < 15, 'every evidence set was impossible');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
