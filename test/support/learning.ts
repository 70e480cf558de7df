/** Test inputs for learning: the alarm-em course files. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readBif } from '../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import { sharedFile } from './shared.js';

/** A network from ../shared/data/tables/alarm-em (alarm.bif with unknown CPTs, gold_alarm.bif). */
export function alarmEmNetwork(name: 'alarm.bif' | 'gold_alarm.bif'): BayesianNetwork | undefined {
  const f = sharedFile('tables', 'alarm-em', name);
  if (!f) return undefined;
  // gold_alarm.bif has a stray `*` after one block (`}*`, line 181): a typo in the course file,
  // not BIF; drop it rather than loosen the reader.
  const r = readBif(readFileSync(f, 'utf8').replace(/\}\*/g, '}'));
  if ('error' in r) assert.fail(`${f}:${r.error.line}: ${r.error.message}`);
  return r.network;
}
