/**
 * RunResults for the browser tests, produced by the real `bayes` CLI at test time (never written
 * by hand). `bayes run --json` gives the example models' results. What no example shows (networks
 * with evidence from the shared BIF files, a structure against its reference) comes from the
 * sub-commands that compute it (`marginals`, `structure`, `learn`), wrapped into entries with the
 * source line that would ask for it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cptsToJson } from '../../../server/src/run/learningResults.js';
import {
  RUN_RESULT_VERSION,
  type NetworkResult,
  type ResultEntry,
  type RunResult,
} from '../../../server/src/protocol/runResult.js';
import { forwardSample, hideAtRandom } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import { loadBif } from '../../support/networks.js';
import { toCsv } from '../../support/learning.js';
import { repoRoot, sharedData, sharedFile } from '../../support/shared.js';

const work = mkdtempSync(join(tmpdir(), 'bayes-webview-'));

export function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'bayes.cjs'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (r.status !== 0 && !(args[0] === 'run' && r.stdout.startsWith('{')))
    throw new Error(`bayes ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** `bayes run --json` on an example model (exit 1 still prints the result when an expect fails). */
export function runExample(name: string): RunResult {
  return JSON.parse(cli(['run', '--json', join('examples', name), '--data-root', sharedData])) as RunResult;
}

/** `bayes run --json` on a model written for the test (in a temporary folder, as `name`). */
export function runModel(name: string, text: string): RunResult {
  const file = join(work, name);
  writeFileSync(file, text);
  return JSON.parse(cli(['run', '--json', file])) as RunResult;
}

/** A RunResult holding the given entries, as `bayes run` would print it for `file`. */
function runResult(file: string, results: ResultEntry[]): RunResult {
  return { version: RUN_RESULT_VERSION, file, diagnostics: [], results };
}

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });

/**
 * A network entry: the BIF's structure and CPTs, with the posterior marginals `bayes marginals`
 * computes given the evidence.
 */
export function networkEntry(name: string, evidence: Record<string, string> = {}): NetworkResult {
  const bif = sharedFile('bif', `${name}.bif`)!;
  const net = loadBif(name)!;
  const args = [
    'marginals',
    bif,
    '--json',
    ...Object.entries(evidence).flatMap(([k, v]) => ['--evidence', `${k}=${v}`]),
  ];
  const m = JSON.parse(cli(args)) as {
    method: 'exact' | 'lw' | 'gibbs';
    marginals: Record<string, Record<string, number>>;
    cost: number;
    budget: number;
    samples?: number;
    seed?: number;
  };
  const cpts = cptsToJson(net);
  return {
    kind: 'network',
    range: at(0),
    source: `import network ${name} from "${name}.bif"`,
    headline: `${net.variables.length} variables`,
    network: name,
    method: m.method,
    cost: m.cost,
    budget: m.budget,
    ...(m.samples ? { samples: m.samples, seed: m.seed } : {}),
    variables: net.variables.map((v) => ({
      name: v.name,
      states: [...v.states],
      parents: cpts[v.name]!.parents,
      cpt: cpts[v.name]!,
      marginal: v.states.map((s) => m.marginals[v.name]![s]!),
      ...(v.name in evidence ? { evidence: evidence[v.name] } : {}),
    })),
  };
}

export function networkRun(name: string, evidence: Record<string, string> = {}): RunResult {
  return runResult(`${name}.bayes`, [networkEntry(name, evidence)]);
}

/** Records drawn from a shared network (seeded), with a fraction of values hidden. */
function sampleCsv(name: string, rows: number, seed: number, hidden = 0): string {
  const net = loadBif(name)!;
  let data = forwardSample(net, rows, createRng(seed));
  if (hidden > 0) data = hideAtRandom(data, hidden, createRng(seed + 1));
  const file = join(work, `${name}-${rows}-${seed}-${hidden}.csv`);
  writeFileSync(file, toCsv(data));
  return file;
}

/**
 * Hill climbing (BIC) on asia records against asia.bif, and EM on the same records with values
 * missing (no example model learns a structure against a reference yet).
 */
export function learningRun(): RunResult {
  const bif = sharedFile('bif', 'asia.bif')!;
  const structure = JSON.parse(
    cli(['structure', sampleCsv('asia', 2000, 3), '--method', 'hillclimb', '--reference', bif, '--json']),
  );
  const learned = JSON.parse(
    cli(['learn', bif, '--data', sampleCsv('asia', 2000, 3, 0.2), '--method', 'em', '--iterations', '40', '--json']),
  );
  return runResult('learning.bayes', [
    {
      ...structure,
      kind: 'structure',
      range: at(2),
      source: 'learn structure Asia from AsiaRecords by hillclimb',
      headline: `${structure.arcs.length} arcs`,
    },
    {
      ...learned,
      kind: 'learnedNetwork',
      range: at(4),
      source: 'learn Asia from AsiaMissing by em',
      headline: `log-likelihood ${learned.logLikelihood.toFixed(2)}`,
    },
  ]);
}
