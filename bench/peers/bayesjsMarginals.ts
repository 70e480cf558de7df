/**
 * Peer for bench/inference.ts, run in its own process (so a slow network can be timed out):
 * all marginals with the npm library bayesjs (junction tree, `inferAll`). Reads the exported
 * network JSON, prints JSON with per-evidence-set timings and marginals.
 */
import { readFileSync } from 'node:fs';
import bayesjs, { type INetwork } from 'bayesjs';
import type { ExportedNetwork } from './exportNetwork.js';

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ExportedNetwork;
const network: INetwork = {};
for (const v of spec.order) {
  const variable = spec.variables[v]!;
  const cpt = spec.cpts[v]!;
  const k = variable.states.length;
  const parents = cpt.parents.map((p) => spec.variables[p]!.name);
  const row = (r: number) => Object.fromEntries(variable.states.map((s, x) => [s, cpt.table[r * k + x]!]));
  const rows = cpt.table.length / k;
  network[variable.name] = {
    id: variable.name,
    states: variable.states,
    parents,
    cpt:
      parents.length === 0
        ? row(0)
        : Array.from({ length: rows }, (_, r) => {
            const when: Record<string, string> = {};
            let rest = r;
            for (let i = cpt.parents.length - 1; i >= 0; i--) {
              const ps = spec.variables[cpt.parents[i]!]!.states;
              when[parents[i]!] = ps[rest % ps.length]!;
              rest = Math.floor(rest / ps.length);
            }
            return { when, then: row(r) };
          }),
  };
}
const cases = spec.evidence_sets.map((evidence) => {
  const t = performance.now();
  const result = bayesjs.inferAll(network, { ...evidence }, { precision: 15, force: true });
  return { seconds: (performance.now() - t) / 1000, marginals: result };
});
process.stdout.write(JSON.stringify({ cases }));
