/**
 * `npm run test:slow`: every shared network, written as XMLBIF, Hugin NET and UAI and read back,
 * answers the same marginals as the BIF it came from: exact inference where the junction tree
 * fits the default budget, otherwise likelihood weighting with the same seed (identical tables
 * draw identical samples). test/unit/model/networkFormats.test.ts checks the tables themselves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBif } from '../../server/src/model/bif.js';
import { NETWORK_FORMATS } from '../../server/src/model/networkFormats.js';
import { posteriorMarginals } from '../../server/src/engine/inference/marginals.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import { NO_SHARED, sharedFile } from '../support/shared.js';

const dir = sharedFile('bif');
const files = dir ? readdirSync(dir).filter((f) => f.endsWith('.bif')) : [];

function marginals(net: BayesianNetwork): { method: string; marginals: number[][] } {
  // evidence: the last root in its likeliest state, which no network can rule out
  const root = [...net.cpts].reverse().find((c) => c.parents.length === 0)!;
  const table = Array.from(root.table);
  const evidence = new Map([[root.child, table.indexOf(Math.max(...table))]]);
  const answer = posteriorMarginals(net, evidence, { samples: 2000, seed: 1 });
  assert.ok(answer.ok, answer.ok ? '' : answer.message);
  return { method: answer.method, marginals: answer.marginals.map((m) => Array.from(m)) };
}

test('the shared networks are there', (t) => {
  if (!dir) return t.skip(NO_SHARED);
  assert.ok(files.length >= 20);
});

for (const file of files) {
  test(`${file}: the same marginals through XMLBIF, Hugin NET and UAI`, (t) => {
    const read = readBif(readFileSync(join(dir!, file), 'utf8'));
    assert.ok('network' in read);
    const before = marginals(read.network);
    t.diagnostic(`${file}: ${before.method}`);
    for (const format of NETWORK_FORMATS.filter((f) => f.write && f.name !== 'BIF')) {
      const back = format.read(format.write!(read.network));
      assert.ok('network' in back, `${file} as ${format.name}`);
      assert.deepEqual(marginals(back.network), before, `${file} as ${format.name}`);
    }
  });
}
