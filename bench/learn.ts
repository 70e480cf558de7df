/**
 * A million records through `bayes learn`'s path: ALARM sampled by our forward sampler, written as
 * CSV (37 columns; complete, or with a fraction of cells missing), then read streaming into per-column state indices, grouped into
 * distinct patterns, and counted. Prints time and memory per stage; the claim under test is that
 * memory stays near four bytes per cell (value indices, no strings per cell).
 *   npm run bench:learn [-- ROWS [MISSING]]
 * With missing cells `bayes learn` also pays exact inference for the log-likelihood of every
 * distinct incomplete record (as EM does per iteration).
 */
import { createWriteStream, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBif } from '../server/src/model/bif.js';
import { readDiscreteFile } from '../server/src/model/dataTable.js';
import { forwardSample, hideAtRandom } from '../server/src/engine/sampling/forwardSampling.js';
import { alignToNetwork, groupRows } from '../server/src/engine/dataset.js';
import { learnCpts } from '../server/src/engine/estimators/cptLearning.js';
import { createRng } from '../server/src/engine/random.js';
import { main } from '../server/src/cli.js';
import { commandLineFiles } from '../server/src/workspace/files.js';

const rows = Number(process.argv[2] ?? 1e6);
/** Fraction of cells written as `?`: 0 by default (counting's case); `-- ROWS 0.05` measures missing data. */
const missing = Number(process.argv[3] ?? 0);
const shared = process.env.BAYES_SHARED ?? resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared');
const parsed = readBif(readFileSync(join(shared, 'data', 'bif', 'alarm.bif'), 'utf8'));
if ('error' in parsed) throw new Error(parsed.error.message);
const net = parsed.network;
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
/** Samples and writes the CSV in its own scope, so the sample is garbage before the read is measured. */
async function writeSample(file: string): Promise<void> {
  const sample = hideAtRandom(forwardSample(net, rows, createRng(1)), missing, createRng(2));
  const out = createWriteStream(file);
  out.write(net.variables.map((v) => v.name).join(',') + '\n');
  for (let r = 0; r < rows; r++) {
    const line = sample.columns.map((c, v) => (c[r]! < 0 ? '?' : net.variables[v]!.states[c[r]!])).join(',') + '\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const dir = mkdtempSync(join(tmpdir(), 'bench-learn-'));
try {
  const file = join(dir, 'alarm.csv');
  await writeSample(file);
  console.log(
    `${rows} rows × ${net.variables.length} columns, ${missing * 100}% missing, CSV ${mb(statSync(file).size)}`,
  );
  global.gc?.();
  const before = process.memoryUsage();
  let t = performance.now();
  const data = await readDiscreteFile(commandLineFiles(), file);
  const read = performance.now() - t;
  global.gc?.(); // count what the table keeps, not the reader's garbage
  const after = process.memoryUsage();
  console.log(
    `read (streaming splitter → Int32 value indices): ${(read / 1000).toFixed(2)} s, ${(((rows / read) * 1000) / 1e6).toFixed(2)} M rows/s; ` +
      `column bytes ${mb(data.columns.reduce((s, c) => s + c.byteLength, 0))}; heap +${mb(after.heapUsed - before.heapUsed)}, ` +
      `array buffers ${mb(after.arrayBuffers)}, rss ${mb(after.rss)}`,
  );
  t = performance.now();
  const aligned = alignToNetwork(net.variables, data);
  if ('error' in aligned) throw new Error(aligned.error);
  const learned = learnCpts(net, aligned.data);
  console.log(
    `align + count all 37 CPTs: ${((performance.now() - t) / 1000).toFixed(2)} s (${learned.cpts.length} tables)`,
  );
  t = performance.now();
  const patterns = groupRows(aligned.data);
  console.log(
    `group into distinct patterns (EM's E-step unit): ${((performance.now() - t) / 1000).toFixed(2)} s, ${patterns.count} patterns; rss ${mb(process.memoryUsage().rss)}`,
  );
  t = performance.now();
  let printed = '';
  const code = await main(['learn', join(shared, 'data', 'bif', 'alarm.bif'), '--data', file, '--method', 'counting'], {
    out: (x) => {
      printed += x;
    },
    err: (x) => {
      printed += x;
    },
    cwd: process.cwd(),
  });
  console.log(
    `bayes learn --method counting, end to end: ${((performance.now() - t) / 1000).toFixed(2)} s (exit ${code}); rss ${mb(process.memoryUsage().rss)}`,
  );
  console.log('  ' + printed.trim().split('\n').join('\n  '));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
