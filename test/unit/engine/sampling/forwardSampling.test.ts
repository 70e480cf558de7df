import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardSample } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { NO_SHARED } from '../../../support/shared.js';
import { loadBif, loadReference } from '../../../support/networks.js';

test('forward samples of ALARM have the exact marginals (pgmpy reference) within sampling error', (t) => {
  const net = loadBif('alarm');
  const reference = loadReference('alarm');
  if (!net || !reference) return t.skip(NO_SHARED);
  const exact = reference[0]!.marginals;
  const rows = 30000;
  const data = forwardSample(net, rows, createRng(11));
  let states = 0;
  net.variables.forEach((v, i) => {
    const counts = new Float64Array(v.states.length);
    for (const s of data.columns[i]!) counts[s]!++;
    v.states.forEach((s, k) => {
      const p = exact[v.name]![s]!;
      // 105 states: 4.5 standard errors would be exceeded by chance with probability < 1e-3.
      const se = Math.sqrt(Math.max(p * (1 - p), 1e-6) / rows);
      assert.ok(Math.abs(counts[k]! / rows - p) < 4.5 * se, `${v.name}=${s}: ${counts[k]! / rows} vs exact ${p}`);
      states++;
    });
  });
  assert.equal(states, 105);
});
