/** Networks from ../shared/data/bif for tests, and a brute-force joint for checking inference. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readBif } from '../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import { sharedFile } from './shared.js';

export function sharedNetwork(...parts: string[]): BayesianNetwork | undefined {
  const f = sharedFile(...parts);
  if (!f) return undefined;
  // alarm-em/gold_alarm.bif has a stray `*` after one block (`}*`, line 181): a typo in the
  // course file, not BIF; drop it rather than loosen the reader.
  const r = readBif(readFileSync(f, 'utf8').replace(/\}\*/g, '}'));
  if ('error' in r) assert.fail(`${f}:${r.error.line}: ${r.error.message}`);
  return r.network;
}

/** Calls visit(assignment, P(assignment)) for every joint assignment (small networks only). */
export function enumerateJoint(net: BayesianNetwork, visit: (states: number[], p: number) => void): void {
  const n = net.variables.length;
  const states = new Array<number>(n).fill(0);
  const cards = net.variables.map((v) => v.states.length);
  for (;;) {
    let p = 1;
    for (const cpt of net.cpts) {
      let row = 0;
      for (const q of cpt.parents) row = row * cards[q]! + states[q]!;
      p *= cpt.table[row * cards[cpt.child]! + states[cpt.child]!]!;
    }
    visit(states, p);
    let i = n - 1;
    while (i >= 0 && ++states[i]! === cards[i]!) states[i--] = 0;
    if (i < 0) return;
  }
}
