/**
 * All posterior marginals, without and with evidence, on bnlearn networks: our junction tree
 * against pomegranate 0.14 (loopy BP, Debian python3-pomegranate via /usr/bin/python3) and the
 * npm library bayesjs (junction tree), measured in the same run. Prints time ratios (peer / ours)
 * and each peer's max abs error against our exact marginals. Peers that exceed the time limit
 * or fail are reported as such. Usage: npm run bench:inference [-- net…] [--timeout S]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JunctionTree } from '../server/src/engine/inference/junctionTree.js';
import type { BayesianNetwork } from '../server/src/engine/network.js';
import { evidenceOf, loadBif, loadReference } from '../test/support/networks.js';
import { exportNetwork } from './peers/exportNetwork.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const timeoutAt = args.indexOf('--timeout');
const timeoutS = timeoutAt >= 0 ? Number(args[timeoutAt + 1]) : 180;
const nets = args.filter((a, i) => !a.startsWith('--') && i !== timeoutAt + 1);
const NETWORKS = nets.length ? nets : ['alarm', 'hailfinder', 'hepar2', 'win95pts', 'pathfinder', 'andes', 'munin'];

type Marginals = Record<string, Record<string, number>>;
interface PeerRun {
  seconds: number[];
  marginals: Marginals[];
}

/** Median seconds of `run` over enough repetitions to fill ~0.3 s (at least 3). */
function timeIt(run: () => void): number {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 3 || (performance.now() - start < 300 && times.length < 5000)) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]! / 1000;
}

function ourMarginals(
  net: BayesianNetwork,
  jt: JunctionTree,
  evidence: Record<string, string>,
): { seconds: number; marginals: Marginals } {
  const e = evidenceOf(net, evidence);
  const all = () => {
    jt.setEvidence(e);
    jt.propagate();
    return net.variables.map((_, v) => jt.marginal(v));
  };
  const seconds = timeIt(all);
  const values = all();
  const marginals: Marginals = {};
  net.variables.forEach((v, i) => {
    marginals[v.name] = Object.fromEntries(v.states.map((s, j) => [s, values[i]![j]!]));
  });
  return { seconds, marginals };
}

function runPeer(command: string, argv: string[]): PeerRun | string {
  const r = spawnSync(command, argv, { encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 1 << 28 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return `timeout ${timeoutS}s`;
  if (r.status !== 0) {
    const lines = (r.stderr || String(r.error)).trim().split('\n');
    return `failed: ${(lines.find((l) => /Error|FATAL/.test(l)) ?? lines.pop())!.trim()}`;
  }
  const out = JSON.parse(r.stdout) as { cases: { seconds: number; marginals: Marginals }[] };
  return { seconds: out.cases.map((c) => c.seconds), marginals: out.cases.map((c) => c.marginals) };
}

function maxError(ours: Marginals, peer: Marginals, observed: Record<string, string>): number {
  let worst = 0;
  for (const [v, dist] of Object.entries(ours)) {
    if (v in observed) continue;
    for (const [s, p] of Object.entries(dist)) worst = Math.max(worst, Math.abs(p - (peer[v]?.[s] ?? NaN)));
  }
  return worst;
}

const fmt = (s: number) => (s * 1000 < 10 ? (s * 1000).toFixed(3) : (s * 1000).toFixed(1)) + ' ms';

const dir = mkdtempSync(join(tmpdir(), 'bench-inference-'));
try {
  console.log(
    `all marginals, median time; ratio = peer time / ours; error = max |peer − exact|; peer time limit ${timeoutS}s`,
  );
  for (const name of NETWORKS) {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) {
      console.log(`${name}: ../shared/data missing, skipped`);
      continue;
    }
    const evidenceSets = [{}, cases.find((c) => Object.keys(c.evidence).length > 0)?.evidence ?? {}];
    let t = performance.now();
    const jt = JunctionTree.compile(net);
    const compileMs = performance.now() - t;
    const ours = evidenceSets.map((e) => ourMarginals(net, jt, e));
    console.log(
      `\n${name}: ${net.variables.length} variables, largest clique ${jt.maxCliqueSize}, all cliques ${jt.totalSize}; compile ${compileMs.toFixed(1)} ms`,
    );
    ours.forEach((o, i) => console.log(`  ours         ${i ? 'evidence   ' : 'no evidence'}  ${fmt(o.seconds)}`));
    const specFile = join(dir, `${name}.json`);
    writeFileSync(specFile, JSON.stringify(exportNetwork(net, evidenceSets)));
    const peers: [string, () => PeerRun | string][] = [
      [
        'pomegranate',
        () => runPeer('/usr/bin/python3', [join(here, 'peers', 'pomegranate_marginals.py'), specFile, '3']),
      ],
      [
        'bayesjs',
        () => runPeer(process.execPath, ['--import', 'tsx', join(here, 'peers', 'bayesjsMarginals.ts'), specFile]),
      ],
    ];
    for (const [peer, run] of peers) {
      t = performance.now();
      const r = run();
      if (typeof r === 'string') {
        console.log(`  ${peer.padEnd(12)} ${r}`);
        continue;
      }
      r.seconds.forEach((s, i) => {
        const ratio = s / ours[i]!.seconds;
        const err = maxError(ours[i]!.marginals, r.marginals[i]!, evidenceSets[i]!);
        console.log(
          `  ${peer.padEnd(12)} ${i ? 'evidence   ' : 'no evidence'}  ${fmt(s)}  ratio ${ratio.toFixed(1)}×  error ${err.toExponential(2)}`,
        );
      });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
