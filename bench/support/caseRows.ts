/**
 * Case files for `bayes predict` / `bayes validate`: records forward-sampled from a network with
 * a seed, each cell hidden (`?`) with a probability — the target's column excepted, so every row
 * can be scored. Used by bench/predict.ts and to write examples/data/alarm_holdout.csv:
 *   node --import tsx bench/support/caseRows.ts examples/data/alarm.bif 300 0.2 7 HYPOVOLEMIA
 */
import { readFileSync } from 'node:fs';
import { readBif } from '../../server/src/model/bif.js';
import { forwardSample } from '../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';

export function readBifFile(file: string): BayesianNetwork {
  const r = readBif(readFileSync(file, 'utf8'));
  if ('error' in r) throw new Error(`${file}: ${r.error.message}`);
  return r.network;
}

/** The CSV text: a header of the variables, then `rows` records. */
export function caseRowsCsv(net: BayesianNetwork, rows: number, hidden: number, seed: number, keep?: string): string {
  const rng = createRng(seed);
  const data = forwardSample(net, rows, rng);
  const lines = [net.variables.map((v) => v.name).join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = net.variables.map((v, i) =>
      v.name !== keep && rng.next() < hidden ? '?' : v.states[data.columns[i]![r]!]!,
    );
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1]?.endsWith('caseRows.ts')) {
  const [file, rows, hidden, seed, keep] = process.argv.slice(2);
  process.stdout.write(caseRowsCsv(readBifFile(file!), Number(rows), Number(hidden), Number(seed), keep));
}
