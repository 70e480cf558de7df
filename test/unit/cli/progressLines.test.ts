/**
 * Progress lines and Ctrl+C beyond the bootstrap (issue 34): structure searches (hill climbing,
 * tabu, K2, PC, the Gaussian searches), bayes predict's and validate's rows, and the samplers of
 * bayes marginals. On a pseudo-terminal (util-linux's `script`) the line is drawn and SIGINT
 * stops the work within a second with exit 130 and a summary; through a pipe, or in --json
 * output, nothing of it appears. The engine's progress hooks change no answer. Skips when
 * `script` or the built CLI is missing.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';
import { interruptOnTerminal, tempFile } from '../../support/cli.js';
import { readBif } from '../../../server/src/model/bif.js';
import { forwardSample } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { hillClimb } from '../../../server/src/engine/structure/hillClimb.js';
import { pcStable } from '../../../server/src/engine/structure/pcStable.js';
import { k2 } from '../../../server/src/engine/structure/k2.js';
import { likelihoodWeighting } from '../../../server/src/engine/sampling/likelihoodWeighting.js';
import { gibbsSampling } from '../../../server/src/engine/sampling/gibbsSampling.js';
import { heldOutPredictions } from '../../../server/src/engine/classifiers/validation.js';

const cli = join(repoRoot, 'dist', 'cli.cjs');
const noBuild = existsSync(cli) ? false : 'dist/ is not built: run node esbuild.mjs';
const noScript = spawnSync('script', ['--version']).status === 0 ? false : "util-linux's script is not installed";
const skipTty = noBuild || noScript;
const alarmBif = join(repoRoot, 'examples', 'data', 'alarm.bif');
// The terminal's escape codes and the line's separator are what these look for.
// eslint-disable-next-line no-control-regex
const ESCAPE_OR_PROGRESS = /\u001b| · /;

function alarm(): BayesianNetwork {
  const r = readBif(readFileSync(alarmBif, 'utf8'));
  if ('error' in r) throw new Error(r.error.message);
  return r.network;
}

/** ALARM records as CSV, each cell but `keep`'s hidden ('?') with probability `hidden`. */
function alarmCsv(net: BayesianNetwork, rows: number, hidden: number, keep?: string): string {
  const rng = createRng(7);
  const data = forwardSample(net, rows, rng);
  const lines = [net.variables.map((v) => v.name).join(',')];
  for (let r = 0; r < rows; r++)
    lines.push(
      net.variables
        .map((v, i) => (v.name !== keep && rng.next() < hidden ? '?' : v.states[data.columns[i]![r]!]!))
        .join(','),
    );
  return lines.join('\n') + '\n';
}

const net = alarm();
const { dir } = tempFile('.keep', '');
const complete = join(dir, 'alarm2k.csv');
const rows = join(dir, 'alarm-rows.csv');
writeFileSync(complete, alarmCsv(net, 2000, 0));
const rowsText = alarmCsv(net, 20000, 0.2, 'HYPOVOLEMIA');
writeFileSync(rows, rowsText);
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a shell command line whose standard error (and output, unless redirected) is a pseudo-terminal. */
function onTerminal(commandLine: string) {
  return spawnSync('script', ['-qfec', commandLine, '/dev/null'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '' },
    timeout: 120000,
  });
}

function piped(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120000,
    maxBuffer: 1 << 28,
  });
}

/** `args` of the built CLI on a pseudo-terminal, SIGINT once `ready` shows (test/support/cli.ts). */
const interrupt = (args: string[], ready: RegExp) => interruptOnTerminal(cli, args, ready);

describe('the engine reports progress without changing its answer', () => {
  const data = forwardSample(net, 2000, createRng(3));

  it('hill climbing and tabu: one report a move, counting to the moves made; the same result', () => {
    // ALARM's first 12 columns: a climb of a few dozen moves.
    const small = { attributes: data.attributes.slice(0, 12), columns: data.columns.slice(0, 12), rowCount: 2000 };
    for (const [tabu, climbs] of [
      [0, 1],
      [0, 3],
      [5, 2],
    ] as const) {
      const moves: Array<[number, number]> = [];
      const plain = hillClimb(small, { tabu, climbs });
      const told = hillClimb(small, { tabu, climbs, progress: { move: (m, s) => moves.push([m, s]) } });
      assert.deepEqual(told.parents, plain.parents);
      assert.equal(told.score, plain.score);
      assert.ok(plain.steps > 5);
      assert.deepEqual(
        moves.map(([m]) => m),
        Array.from({ length: plain.steps }, (_, i) => i + 1),
      );
      // One plain climb ends at its best: the last report's score is the answer's.
      if (climbs === 1 && tabu === 0) assert.ok(Math.abs(moves.at(-1)![1] - plain.score) < 1e-9 * -plain.score);
    }
  });

  it('PC: one report a test, counting to the tests run; K2: one a node, its last score the total', () => {
    const tests: number[] = [];
    const plain = pcStable(data);
    const told = pcStable(data, { progress: { test: (t) => tests.push(t) } });
    assert.equal(told.tests, plain.tests);
    assert.deepEqual(told.graph.arcs(), plain.graph.arcs());
    assert.deepEqual(
      tests,
      Array.from({ length: plain.tests }, (_, i) => i + 1),
    );
    const nodes: Array<[number, number, number]> = [];
    const found = k2(data, { progress: { node: (d, n, s) => nodes.push([d, n, s]) } });
    assert.deepEqual(
      nodes.map(([d, n]) => [d, n]),
      net.variables.map((_, i) => [i + 1, net.variables.length]),
    );
    assert.equal(nodes.at(-1)![2], found.score);
  });

  it('samplers and validation: reports up to the whole, the same estimates', () => {
    const evidence = new Map([[net.variables.findIndex((v) => v.name === 'HR'), 0]]);
    const reports: Array<[number, number]> = [];
    const plain = likelihoodWeighting(net, evidence, { samples: 5000, seed: 2 });
    const told = likelihoodWeighting(net, evidence, {
      samples: 5000,
      seed: 2,
      onSamples: (d, t) => reports.push([d, t]),
    });
    assert.deepEqual(told.marginals, plain.marginals);
    assert.deepEqual(
      reports,
      [0, 1024, 2048, 3072, 4096].map((d) => [d, 5000]),
    );
    const sweeps: Array<[number, number]> = [];
    const g = gibbsSampling(net, evidence, { samples: 4000, seed: 2, onSamples: (d, t) => sweeps.push([d, t]) });
    assert.deepEqual(g.marginals, gibbsSampling(net, evidence, { samples: 4000, seed: 2 }).marginals);
    assert.ok(sweeps.length > 0 && sweeps.every(([d, t]) => d >= 0 && d < t));
    const table = { columns: data.columns, rowCount: data.rowCount };
    const done: number[] = [];
    const p = heldOutPredictions(net, 0, table, undefined, (r) => done.push(r));
    assert.deepEqual(p, heldOutPredictions(net, 0, table));
    assert.equal(done.at(-1), data.rowCount);
  });
});

describe('progress lines on a terminal, none in a pipe or in --json', () => {
  it('hill climbing: moves and the score; the --json output clean', { skip: skipTty }, () => {
    const out = join(dir, 'found.json');
    const r = onTerminal(`node ${cli} structure ${complete} --method hillclimb --climbs 1 --json > ${out}`);
    assert.equal(r.status, 0, r.stdout);
    // eslint-disable-next-line no-control-regex
    assert.match(r.stdout, /\r\x1b\[2Khillclimb \d+ moves · [\d.]+\/s · score -\d+\.\d/);
    const json = readFileSync(out, 'utf8');
    assert.doesNotMatch(json, ESCAPE_OR_PROGRESS);
    assert.ok(JSON.parse(json).arcs.length > 20);
    const p = piped(['structure', complete, '--method', 'hillclimb', '--climbs', '1']);
    assert.equal(p.status, 0);
    assert.equal(p.stderr, '');
    assert.match(p.stdout, /arcs by hillclimb/);
  });

  it('PC: tests and the conditioning-set size; K2: nodes of the total', { skip: skipTty }, () => {
    const pc = onTerminal(`node ${cli} structure ${complete} --method pc > /dev/null`);
    assert.equal(pc.status, 0, pc.stdout);
    assert.match(pc.stdout, /pc \d+ tests · [\d.]+\/s · conditioning sets of \d/);
    const k = onTerminal(`node ${cli} structure ${complete} --method k2 > /dev/null`);
    assert.equal(k.status, 0, k.stdout);
    assert.match(k.stdout, /k2 37\/37 nodes · [\d.]+\/s · score -\d+\.\d/);
    assert.equal(piped(['structure', complete, '--method', 'pc']).stderr, '');
  });

  it('predict: rows, rate, share of the file and time left; --json clean', { skip: skipTty }, () => {
    const out = join(dir, 'predicted.json');
    const r = onTerminal(`node ${cli} predict ${alarmBif} --data ${rows} --target HYPOVOLEMIA --json > ${out}`);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /predict \d+ rows · [\d.]+\/s · \d+% of the file · \S+ left/);
    const json = readFileSync(out, 'utf8');
    assert.doesNotMatch(json, ESCAPE_OR_PROGRESS);
    assert.equal(JSON.parse(json).rowCount, 20000);
    const p = piped(['predict', alarmBif, '--data', rows, '--target', 'HYPOVOLEMIA', '--csv']);
    assert.equal(p.status, 0);
    assert.equal(p.stderr, '');
    const q = onTerminal(`node ${cli} predict ${alarmBif} --data ${rows} --target HYPOVOLEMIA --quiet > /dev/null`);
    assert.doesNotMatch(q.stdout, ESCAPE_OR_PROGRESS);
  });

  it('validate: rows predicted of the total; marginals: the sampler’s samples', { skip: skipTty }, () => {
    const v = onTerminal(
      `node ${cli} validate ${alarmBif} --data ${complete} --target HYPOVOLEMIA --folds 3 > /dev/null`,
    );
    assert.equal(v.status, 0, v.stdout);
    assert.match(v.stdout, /validate: predicting 2000\/2000 rows/);
    const m = onTerminal(
      `node ${cli} marginals ${alarmBif} --method lw --samples 3000000 -e HR=HIGH --json > /dev/null`,
    );
    assert.equal(m.status, 0, m.stdout);
    assert.match(m.stdout, /lw \d+\/3000000 samples · [\d.]+\/s · \S+ left/);
    const exact = onTerminal(`node ${cli} marginals ${alarmBif} -e HR=HIGH > /dev/null`);
    assert.doesNotMatch(exact.stdout, ESCAPE_OR_PROGRESS);
  });
});

describe('Ctrl+C stops long work within a second: exit 130 and what was done', () => {
  it('a structure search (synchronous: stopped by the vm watchdog)', { skip: skipTty }, async () => {
    const r = await interrupt(['structure', complete, '--method', 'tabu', '--climbs', '100000'], /tabu \d+ moves/);
    assert.equal(r.code, 130, r.out.slice(-300));
    assert.match(r.out, /bayes structure: interrupted after [\d,]+ search steps \(score -\d+\.\d\)/);
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });

  it('a Gaussian search (hill climbing under bic-g)', { skip: skipTty }, async () => {
    const gauss = join(dir, 'gauss.csv');
    const rng = createRng(5);
    const lines = [Array.from({ length: 40 }, (_, i) => `X${i}`).join(',')];
    for (let r = 0; r < 3000; r++) {
      const x: number[] = [];
      for (let i = 0; i < 40; i++) x.push((i > 0 ? 0.5 * x[i - 1]! : 0) + (i > 1 ? 0.3 * x[i - 2]! : 0) + rng.normal());
      lines.push(x.map((v) => v.toFixed(5)).join(','));
    }
    writeFileSync(gauss, lines.join('\n') + '\n');
    const r = await interrupt(
      ['structure', gauss, '--method', 'hillclimb', '--score', 'bic-g', '--climbs', '100000'],
      /hillclimb \d+ moves/,
    );
    assert.equal(r.code, 130, r.out.slice(-300));
    assert.match(r.out, /bayes structure: interrupted after [\d,]+ search steps \(score -\d+\.\d\)/);
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });

  it('a long predict (streamed: the row handler sees the signal)', { skip: skipTty }, async () => {
    const big = join(dir, 'alarm-big.csv');
    // 10 × 20,000 rows: longer than the signal takes to come, on a loaded machine too.
    writeFileSync(big, rowsText + rowsText.slice(rowsText.indexOf('\n') + 1).repeat(9));
    const r = await interrupt(
      ['predict', alarmBif, '--data', big, '--target', 'HYPOVOLEMIA', '--json', '>', '/dev/null'],
      /predict \d+ rows/,
    );
    assert.equal(r.code, 130, r.out.slice(-300));
    const m = /bayes predict: interrupted after ([\d,]+) rows; the output is incomplete/.exec(r.out);
    assert.ok(m, r.out.slice(-300));
    const done = Number(m[1]!.replace(/,/g, ''));
    assert.ok(done > 0 && done < 200000, m[0]);
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });

  const em = sharedFile('tables', 'alarm-em');
  it('EM of bayes learn', { skip: skipTty || (!em && NO_SHARED) }, async () => {
    const r = await interrupt(
      ['learn', `${em}/alarm.bif`, '--data', `${em}/records.dat`, '--method', 'em', '--iterations', '1000'],
      /em iteration \d+\/1000/,
    );
    assert.equal(r.code, 130, r.out.slice(-300));
    assert.match(
      r.out,
      /bayes learn: interrupted after \d+ iterations \(log-likelihood -\d+\.\d{4}\); nothing written/,
    );
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });

  it('a Gibbs sampler', { skip: skipTty }, async () => {
    const r = await interrupt(
      ['marginals', alarmBif, '--method', 'gibbs', '--samples', '50000000', '-e', 'HR=HIGH'],
      /gibbs \d+\/\d+ sweeps/,
    );
    assert.equal(r.code, 130, r.out.slice(-300));
    assert.match(r.out, /bayes marginals: interrupted after [\d,]+ of [\d,]+ sweeps \(gibbs\); no marginals printed/);
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });
});
