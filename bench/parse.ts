/**
 * Parse + check speed on 10,000-line models: typical statements (forest networks, hypotheses,
 * tables, queries), and the ALARM network (37 variables, from the shared bnlearn BIF, converted
 * by a tiny local reader) with data rows forward-sampled from it (seeded) up to 10,000 lines.
 * For each, in a plain node process running the bundled front end (support/parseRuns.ts): the
 * first run (it builds the parser), warm runs (min / median / max of wall time, and CPU time,
 * which a busy machine disturbs less); then fresh processes: `bayes check FILE` minus `node -e 0`,
 * alternating (what a reviewer timing the CLI sees).
 *
 * Goals, printed as `goal met` or `goal FAILED` (exit code 1), issue 33's: a warm parse + check of
 * 10,000 lines ≤ 25 ms (median wall) on each model; and a fresh `bayes check` ≤ 0.12 s beyond node's start.
 *
 * Then the editor's path: a character typed on the middle line, and a line inserted or removed
 * there, each re-parsed incrementally and checked (for ALARM that line is in the data block).
 *
 *   npm run bench:parse [-- --lines 10000 --runs 15 --rounds 7]   (builds dist/ first)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { bifPath, bigDataModel, useAlarm } from './support/alarmModel.js';
import type { ParseRuns } from './support/parseRuns.js';
import {
  bayesBin,
  freshProcess,
  goal,
  loadAverage,
  printFreshProcess,
  spread,
  stats,
  summary,
} from './support/report.js';

// Measure the front end as it ships: bundled by esbuild and run by plain node (see parseRuns.ts),
// not through tsx (whose keep-names wrappers around every closure would dominate the parser's time).
const harness = resolve(import.meta.dirname, '../out/bench/parseRuns.mjs');
await build({
  entryPoints: [resolve(import.meta.dirname, 'support/parseRuns.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: harness,
  logLevel: 'warning',
});

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '7' },
  },
});
const targetLines = Number(values.lines);
const runs = Number(values.runs);
const rounds = Number(values.rounds);
/** Issue 33: parse + check of 10,000 lines, warm (issue 18's goal was 40 ms). */
const WARM_GOAL_MS = 25;
/** Issue 33: a whole `bayes check` of the 10,000 lines in a fresh process, beyond node's own start (was 0.2 s). */
const FRESH_GOAL_S = 0.12;
/**
 * Warm-up runs before the measured ones, so the figures are of optimised code: V8 is still tiering
 * the parser and checker up for several runs (on the typical model runs 4–8 took 40–70 ms, later
 * ones about 33 ms), so three were too few and the median mixed the two.
 */
const WARMUP = 10;

/**
 * Statements as people write them (the forest network, hypotheses, likelihood tables, queries,
 * expectations), repeated with fresh names: every line goes through the grammar.
 */
function typicalModel(lines: number): string {
  const out: string[] = [];
  const block = (i: number) => [
    `/// Copy ${i} of the forest network (Mitchell fig. 6.3).`,
    `network Forest${i} {`,
    '  variable Storm, BusTourGroup, Lightning, Thunder, Campfire, ForestFire : bool',
    '  P(Storm) = 0.3',
    '  P(BusTourGroup) = 0.5',
    '  P(Lightning | Storm) { true: 0.7, false: 0.05 }',
    '  P(Thunder | Lightning) { true: 0.95, false: 0.02 }',
    '  P(Campfire | Storm, BusTourGroup) {',
    '    true,  true:  0.4',
    '    true,  false: 0.1',
    '    false, true:  0.8',
    '    false, false: 0.2',
    '  }',
    '  P(ForestFire | Storm, Lightning, Campfire) {',
    '    true, true, true: 0.9',
    '    true, true, false: 0.6',
    '    true, false, true: 0.5',
    '    true, false, false: 0.05',
    '    false, true, true: 0.85',
    '    false, true, false: 0.5',
    '    false, false, true: 0.4',
    '    false, false, false: 0.01',
    '  }',
    '}',
    `variable Test${i} { pos, neg }`,
    `hypotheses Diagnosis${i} {`,
    '  cancer:  0.008',
    '  healthy: 0.992',
    '}',
    `P(Test${i} | Diagnosis${i}) {`,
    '  cancer:  { pos: 98%, neg: 2% }',
    '  healthy: [0.03, 0.97]',
    '}',
    `query P(ForestFire | Thunder = true, BusTourGroup = true) in Forest${i}`,
    `query mpe Forest${i} given Thunder = true`,
    `query independent Thunder, Storm given Lightning in Forest${i}`,
    `expect P(Diagnosis${i} = cancer | Test${i} = pos) ≈ 0.2085 ± 0.0001`,
    `expect map Diagnosis${i} given Test${i} = pos = healthy`,
    '',
  ];
  for (let i = 0; out.length + block(i).length <= lines; i++) out.push(...block(i));
  while (out.length < lines) out.push('// (padding to the line count)');
  return out.join('\n') + '\n';
}

if (!useAlarm) console.log(`(${bifPath} not found: using a synthetic chain network instead of ALARM)`);
const models: [string, string][] = [
  ['typical statements (forest networks, hypotheses, tables, queries)', typicalModel(targetLines)],
  bigDataModel(targetLines),
];
console.log(
  `bench/parse.ts ${new Date().toISOString()}, load average ${loadAverage()}; ` +
    `${runs} warm runs (after ${WARMUP}), ${rounds} fresh-process rounds; min / median / max`,
);
const folder = mkdtempSync(join(tmpdir(), 'bench-parse-'));
for (const [index, [label, text]] of models.entries()) {
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}.${index}.bayes`, text);
  const lineCount = text.split('\n').length - 1;
  const file = join(folder, `model${index}.bayes`);
  writeFileSync(file, text);
  const measured = JSON.parse(
    execFileSync(process.execPath, [harness, file, String(runs), String(WARMUP)], {
      encoding: 'utf8',
      maxBuffer: 2 ** 24,
    }),
  ) as ParseRuns;
  const { cold, warm } = measured;
  const total = stats(warm.map((w) => w.parseMs + w.checkMs));
  console.log(`\n${label}: ${lineCount} lines, ${(text.length / 1e6).toFixed(2)} MB, ${cold.diagnostics} errors`);
  console.log(
    `  first run (includes building the parser): parse ${cold.parseMs.toFixed(1)} ms + check ${cold.checkMs.toFixed(1)} ms`,
  );
  console.log(`  warm parse          ${spread(stats(warm.map((w) => w.parseMs)))}`);
  console.log(`  warm check          ${spread(stats(warm.map((w) => w.checkMs)))}`);
  console.log(`  warm parse + check  ${spread(total)} wall, ${spread(stats(warm.map((w) => w.cpuMs)))} CPU`);
  const fresh = freshProcess([bayesBin, 'check', file], rounds, [0, 1]);
  printFreshProcess('bayes check', fresh);
  const { character, line } = measured.editing;
  console.log(
    `  keystroke, incremental, median of ${runs}: ${stats(character).median.toFixed(1)} ms CPU; ` +
      `line inserted or removed: ${stats(line).median.toFixed(1)} ms CPU`,
  );
  goal(`warm parse + check of ${lineCount} lines (median wall)`, total.median, WARM_GOAL_MS);
  goal('fresh `bayes check` minus `node -e 0` (median wall)', fresh.difference.wall.median, FRESH_GOAL_S, 's', 3);
}
rmSync(folder, { recursive: true, force: true });
summary('bench:parse');
