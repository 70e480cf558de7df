/**
 * The CLI as a terminal tool (issue 34): progress on standard error only on a terminal and never
 * with --quiet or in a pipe, Ctrl+C ending a bootstrap with exit 130, colour, the exit-code
 * table, completion scripts, --version and doctor. The terminal is a pseudo-terminal from
 * util-linux's `script`; these tests skip when it or the built CLI is missing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';
import { capture, tempFile } from '../../support/cli.js';
import {
  formatDuration,
  paint,
  paintDiagnostic,
  progressLine,
  startProgress,
} from '../../../server/src/cli/progress.js';
import { main } from '../../../server/src/cli.js';
import { forTerminal } from '../../../server/src/cli/terminalText.js';

const cli = join(repoRoot, 'dist', 'cli.cjs');
const noBuild = existsSync(cli) ? false : 'dist/ is not built: run node esbuild.mjs';
const noScript = spawnSync('script', ['--version']).status === 0 ? false : "util-linux's script is not installed";
const skipTty = noBuild || noScript;
const asia = join(repoRoot, 'examples', 'asia_sample.csv');
// The terminal's escape codes are what these look for.
// eslint-disable-next-line no-control-regex
const ESCAPE_OR_PROGRESS = /\u001b|replicates ·/;
// eslint-disable-next-line no-control-regex
const PROGRESS = /\r\x1b\[2Kbootstrap \d+\/(\d+) replicates · [\d.]+\/s/;

/** Runs a shell command line whose standard error (and output, unless redirected) is a pseudo-terminal. */
function onTerminal(commandLine: string, env: Record<string, string> = {}) {
  return spawnSync('script', ['-qfec', commandLine, '/dev/null'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, ...env, NO_COLOR: env.NO_COLOR ?? '' },
    timeout: 120000,
  });
}

describe('progress line', () => {
  it('says count, rate and time left', () => {
    assert.equal(
      progressLine('bootstrap', 50, 10, { total: 200, unit: 'replicates' }),
      'bootstrap 50/200 replicates · 5.0/s · 30s left',
    );
    assert.equal(
      progressLine('EM', 12, 4, { unit: 'iterations' }, 'log-likelihood −10.5'),
      'EM 12 iterations · 3.0/s · log-likelihood −10.5',
    );
    assert.equal(formatDuration(185), '3m05s');
    assert.equal(formatDuration(3725), '1h02m');
  });

  it('draws nothing without a terminal, or with --quiet, but still counts', () => {
    for (const io of [capture(), Object.assign(capture(), { errIsTTY: true, quiet: true })]) {
      const p = startProgress(io, 'x', { total: 3 });
      p.update(3);
      p.finish();
      assert.equal(io.stderr, '');
      assert.equal(p.done, 3);
    }
    let t = 0;
    const io = Object.assign(capture(), { errIsTTY: true });
    const p = startProgress(io, 'x', { total: 10, now: () => t });
    t = 1000;
    p.update(5);
    t = 1050; // within 100 ms of the last: not redrawn
    p.update(6);
    p.finish();
    assert.equal(forTerminal(io.stderr), '\r\x1b[2Kx 5/10 · 5.0/s · 1s left\r\x1b[2K');
  });

  it('colours only on a terminal without NO_COLOR', () => {
    const line = 'a.bayes:1:2: error: bad';
    assert.equal(paintDiagnostic(line, paint(Object.assign(capture(), { outIsTTY: false }), 'out')), line);
    assert.equal(
      paintDiagnostic(line, paint(Object.assign(capture(), { outIsTTY: true, env: { NO_COLOR: '1' } }), 'out')),
      line,
    );
    assert.equal(
      forTerminal(paintDiagnostic(line, paint(Object.assign(capture(), { outIsTTY: true, env: {} }), 'out'))),
      'a.bayes:1:2: \x1b[1;31merror\x1b[0m: bad',
    );
  });
});

describe('the bootstrap on a terminal and in a pipe', () => {
  it('shows progress on a terminal, and the --json output stays clean', { skip: skipTty }, () => {
    const { file: out, dir } = tempFile('strength.json', '');
    try {
      const r = onTerminal(`node ${cli} structure ${asia} --method hillclimb --bootstrap 30 --json > ${out}`);
      assert.equal(r.status, 0, r.stdout);
      const m = PROGRESS.exec(r.stdout);
      assert.ok(m, `no progress line on the terminal: ${JSON.stringify(r.stdout.slice(0, 300))}`);
      assert.equal(m[1], '30');
      assert.match(r.stdout, /bootstrap 30\/30 replicates/);
      const json = readFileSync(out, 'utf8');
      assert.doesNotMatch(json, ESCAPE_OR_PROGRESS);
      assert.equal(JSON.parse(json).replicates, 30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows none with --quiet on a terminal, nor in a pipe', { skip: skipTty }, () => {
    const quiet = onTerminal(`node ${cli} structure ${asia} --method hillclimb --bootstrap 10 --quiet`);
    assert.equal(quiet.status, 0, quiet.stdout);
    assert.doesNotMatch(quiet.stdout, ESCAPE_OR_PROGRESS);
    assert.match(quiet.stdout, /arc strength over 10 bootstrap replicates/);
    const piped = spawnSync(process.execPath, [cli, 'structure', asia, '--method', 'hillclimb', '--bootstrap', '10'], {
      encoding: 'utf8',
    });
    assert.equal(piped.status, 0);
    assert.equal(piped.stderr, '');
  });

  it('Ctrl+C ends a bootstrap within a second with exit 130 and says how far it got', { skip: skipTty }, async () => {
    // On the terminal, so that the progress line says the replicates are under way before Ctrl+C.
    const command = `exec node ${cli} structure ${asia} --method hillclimb --bootstrap 100000`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '' } });
    let out = '';
    let sent = 0,
      stopped = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!sent && /bootstrap \d+\/100000 replicates/.test(out)) {
        sent = performance.now();
        const node = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
        process.kill(Number(node), 'SIGINT');
      }
      if (sent && !stopped && /interrupted after/.test(out)) stopped = performance.now();
    });
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    assert.ok(sent > 0, `no progress line: ${JSON.stringify(out.slice(0, 300))}`);
    assert.equal(code, 130, out.slice(-300));
    assert.match(
      out,
      /bayes structure: interrupted after \d+ of 100000 bootstrap replicates; no arc strengths printed/,
    );
    assert.ok(stopped - sent < 1000, `took ${stopped - sent} ms`);
  });
});

describe('EM on a terminal', () => {
  const dir = sharedFile('tables', 'alarm-em');
  it('shows the iteration and the log-likelihood', { skip: skipTty || (!dir && NO_SHARED) }, () => {
    const r = onTerminal(
      `node ${cli} learn ${dir}/alarm.bif --data ${dir}/records.dat --method em --iterations 2 --json > /dev/null`,
    );
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /em iteration 2\/2 · [\d.]+\/s · log-likelihood -\d+\.\d{4}/);
  });
});

describe('help, version, doctor and completion', () => {
  it('--help has the exit-code table', async () => {
    const io = capture();
    assert.equal(await main(['--help'], io), 0);
    for (const code of ['0', '1', '2', '3', '130', '70']) assert.match(io.stdout, new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it('--version names the build; doctor the platform and the memory budget', { skip: noBuild }, () => {
    const v = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0);
    assert.match(v.stdout, /^bayes \d+\.\d+\.\d+ \(engine build .+, built \d{4}-\d\d-\d\d\)\n$/);
    const d = spawnSync(process.execPath, [cli, 'doctor'], { encoding: 'utf8' });
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, new RegExp(`^node: +${process.version.replace(/\./g, '\\.')}`, 'm'));
    assert.match(d.stdout, /^memory budget: +2048 MB/m);
    const small = spawnSync(process.execPath, [cli, 'doctor', '--max-memory', '200'], { encoding: 'utf8' });
    assert.match(small.stdout, /^memory budget: +200 MB/m);
  });

  it('the bash completion script loads and completes commands and options', { skip: noBuild }, () => {
    const bin = join(repoRoot, 'bin', 'bayes.cjs');
    const script = `bayes() { node ${bin} "$@"; }
source <(bayes completion bash) && complete -p bayes
COMP_WORDS=(bayes stru); COMP_CWORD=1; _bayes; echo "commands: \${COMPREPLY[*]}"
COMP_WORDS=(bayes structure --boot); COMP_CWORD=2; _bayes; echo "options: \${COMPREPLY[*]}"`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^complete .*-F _bayes bayes$/m);
    assert.match(r.stdout, /^commands: structure$/m);
    assert.match(r.stdout, /^options: --bootstrap$/m);
  });

  it('zsh and fish scripts name every command; an unknown shell is a usage error', async () => {
    for (const shell of ['zsh', 'fish']) {
      const io = capture();
      assert.equal(await main(['completion', shell], io), 0);
      for (const name of ['check', 'marginals', 'structure', 'doctor'])
        assert.match(io.stdout, new RegExp(`\\b${name}\\b`));
      assert.match(io.stdout, /--bootstrap|-l bootstrap/);
    }
    const io = capture();
    assert.equal(await main(['completion', 'tcsh'], io), 2);
  });
});
