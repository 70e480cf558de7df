/**
 * The timed part of bench/parse.ts, run in a plain `node` process as the editor and the CLI run
 * the front end: bench/parse.ts bundles this file with esbuild and starts it on a model file. In
 * the bench's own process tsx's loader and esbuild's service added 5–8 ms to each 30 ms run.
 *
 *   node out/bench/parseRuns.mjs FILE RUNS WARMUP   → one line of JSON (`ParseRuns`) on stdout
 */
import { readFileSync } from 'node:fs';
import { checkDocument, fullParse, parseDocument, reparse } from '../../server/src/language/index.js';
import type { CheckEnvironment } from '../../server/src/language/index.js';

/** Wall and CPU milliseconds of one parse and check; CPU time is the steadier figure on a shared machine. */
export interface Run {
  parseMs: number;
  checkMs: number;
  cpuMs: number;
  diagnostics: number;
}

export interface ParseRuns {
  /** The first run in the process: it builds the parser, and nothing is optimised yet. */
  cold: Run;
  warm: Run[];
  /** CPU milliseconds of each incremental re-parse and check after an edit on the middle line. */
  editing: { character: number[]; line: number[] };
}

const env: CheckEnvironment = { documentPath: '/bench/model.bayes', allowedRoots: ['/bench'], fileExists: () => false };

function once(text: string): Run {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const parsed = parseDocument(text);
  const t1 = performance.now();
  const checked = checkDocument(parsed.ast, env);
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  return {
    parseMs: t1 - t0,
    checkMs: t2 - t1,
    cpuMs: (cpu.user + cpu.system) / 1000,
    diagnostics: parsed.diagnostics.length + checked.filter((d) => d.severity === 'error').length,
  };
}

/**
 * Re-parsing (incrementally) and checking after each of `runs` edits on the middle line: its
 * first character typed over and back, or a line break put before it and removed.
 */
function editing(text: string, kind: 'character' | 'line', runs: number): number[] {
  const lines = text.split('\n');
  const line = Math.floor(lines.length / 2);
  const at = lines.slice(0, line).join('\n').length + 1 + lines[line].search(/\S|$/);
  let state = fullParse(text);
  checkDocument(state.output.ast, env);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const current = state.text;
    const next =
      kind === 'character'
        ? current.slice(0, at) + (i % 2 === 0 ? 'X' : text[at]) + current.slice(at + 1)
        : i % 2 === 0
          ? current.slice(0, at) + '\n' + current.slice(at)
          : current.slice(0, at) + current.slice(at + 1);
    const cpu0 = process.cpuUsage();
    state = reparse(state, next);
    checkDocument(state.output.ast, env);
    const cpu = process.cpuUsage(cpu0);
    times.push((cpu.user + cpu.system) / 1000);
  }
  return times;
}

const [file, runsArg, warmupArg] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
const runs = Number(runsArg);
const cold = once(text);
for (let i = 0; i < Number(warmupArg); i++) once(text);
const warm = Array.from({ length: runs }, () => once(text));
const result: ParseRuns = {
  cold,
  warm,
  editing: { character: editing(text, 'character', runs), line: editing(text, 'line', runs) },
};
process.stdout.write(JSON.stringify(result) + '\n');
