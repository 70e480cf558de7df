/** Test inputs for learning: the alarm-em course files, and sampled records written as CSV. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readBif } from '../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../server/src/engine/categoricalData.js';
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

/** The records as CSV (a header of attribute names unless `header` is false; `?` for a hidden value). */
export function toCsv(d: CategoricalDataset, header = true): string {
  const lines = header ? [d.attributes.map((v) => v.name).join(',')] : [];
  for (let r = 0; r < d.rowCount; r++)
    lines.push(d.columns.map((c, v) => (c[r]! < 0 ? '?' : d.attributes[v]!.values[c[r]!])).join(','));
  return lines.join('\n') + '\n';
}
