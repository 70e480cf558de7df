/**
 * Confinement of every path a model names: symbolic links out of the workspace (alone and in
 * chains), `..` and absolute paths, globs whose folder escapes, a FIFO, /dev/zero behind a link,
 * a folder, a sparse 2.5 GB file, a link loop, an archive bomb. Each is refused with a diagnostic
 * naming the path as written and the rule — by the checker in the CLI/worker environment and in
 * the server's asynchronous one, by a run, by every read of Files, by the run cache and the
 * quick fix — quickly, without the secret's content ever appearing. The probe runs in a child
 * process with a timeout: a read that blocks (FIFO) or never ends (/dev/zero) fails the test
 * instead of hanging it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/shared.js';
import { hostileTree, SECRET } from '../../support/hostileFiles.js';
import type { ProbeCase, ProbeOutcome } from '../../support/confinementProbe.js';

interface Expect {
  code?: string;
  rule?: RegExp;
  runMessage?: RegExp;
  reads?: 'refused' | 'ok' | 'skip';
}

test('hostile paths are refused by rule, quickly, and nothing of the secret is shown', { timeout: 120_000 }, (t) => {
  if (process.platform === 'win32') return t.skip('symbolic links, FIFOs and /dev/zero are POSIX');
  const tree = hostileTree();
  try {
    const cases: Array<ProbeCase & Expect> = [
      {
        name: 'symlink to a secret outside',
        written: 'link.csv',
        kind: 'data',
        code: 'file-outside-roots',
        rule: /leads outside/,
      },
      {
        name: 'chain of links ending outside',
        written: 'chain1.csv',
        kind: 'data',
        code: 'file-outside-roots',
        rule: /leads outside/,
      },
      { name: 'chain of links staying inside', written: 'inchain1.csv', kind: 'data', reads: 'ok' },
      {
        name: 'FIFO',
        written: 'pipe.csv',
        kind: 'data',
        code: 'file-not-regular',
        rule: /is a FIFO \(named pipe\), not a regular file/,
      },
      {
        name: '/dev/zero behind a link',
        written: 'zero.csv',
        kind: 'data',
        code: 'file-outside-roots',
        rule: /leads outside/,
      },
      {
        name: '/dev/zero behind a link, /dev a data root',
        written: 'zero.csv',
        kind: 'data',
        dataRoots: ['/dev'],
        code: 'file-not-regular',
        rule: /is a device, not a regular file/,
      },
      {
        name: 'a folder as data',
        written: 'folder.csv',
        kind: 'data',
        code: 'file-not-regular',
        rule: /is a folder, not a regular file/,
      },
      {
        name: 'sparse 2.5 GB file',
        written: 'big.csv',
        kind: 'data',
        code: 'file-too-big',
        rule: /is 2560 MB, over the 64 MB limit .*bayes\.maxFileMb/,
      },
      {
        name: '.. escape',
        written: '../../outside/secret.csv',
        kind: 'data',
        code: 'file-outside-roots',
        rule: /is outside the workspace/,
      },
      {
        name: 'absolute path outside',
        written: join(tree.outside, 'secret.csv'),
        kind: 'data',
        code: 'file-outside-roots',
        rule: /is outside the workspace/,
      },
      { name: 'link loop', written: 'loop1.csv', kind: 'data', code: 'file-not-found', rule: /cannot find/ },
      {
        name: 'imported network behind a link',
        written: 'link.bif',
        kind: 'import',
        code: 'file-outside-roots',
        rule: /leads outside/,
      },
      {
        name: 'glob escaping by ..',
        written: '../../outside/news/*.tar.gz',
        kind: 'corpus',
        code: 'file-outside-roots',
        reads: 'skip',
      },
      {
        name: 'glob escaping through a linked folder',
        written: 'linkdir/news/*.tar.gz',
        kind: 'corpus',
        code: 'file-outside-roots',
        rule: /leads outside/,
        reads: 'skip',
      },
      {
        name: 'archive bomb',
        written: 'bomb.tar.gz',
        kind: 'corpus',
        runMessage: /expands to more than 256 MB.*bayes\.archive\.maxExpandedMb/,
        reads: 'ok',
      },
    ];
    const probe = join(repoRoot, 'test', 'support', 'confinementProbe.ts');
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', probe, tree.models, tree.workspace, JSON.stringify(cases)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 90_000,
        maxBuffer: 64 << 20,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    assert.equal(
      child.signal,
      null,
      `the probe was killed (${child.signal}) after ${seconds.toFixed(1)} s: a read blocked or ran away`,
    );
    assert.equal(child.status, 0, child.stderr);
    assert.ok(
      !child.stdout.includes(SECRET) && !child.stderr.includes(SECRET),
      "the secret file's content appears in the output",
    );
    const { outcomes, maxRssMb } = JSON.parse(child.stdout) as { outcomes: ProbeOutcome[]; maxRssMb: number };
    // The bomb inflates to its 256 MB cap at most; everything else reads next to nothing.
    assert.ok(maxRssMb < 700, `the probe peaked at ${maxRssMb.toFixed(0)} MB`);
    for (const [i, c] of cases.entries()) {
      const o = outcomes[i]!;
      const label = `${c.name} ("${c.written}")`;
      assert.ok(o.ms < 15_000, `${label}: ${o.ms.toFixed(0)} ms`);
      for (const [where, ds] of [
        ['check', o.check],
        ['server check', o.server],
        ['run', o.run],
      ] as const) {
        const fileCodes = ds.filter((d) => d.code.startsWith('file-'));
        if (!c.code) {
          assert.deepEqual(fileCodes, [], `${label}: ${where}`);
          continue;
        }
        const d = ds.find((x) => x.code === c.code);
        assert.ok(d, `${label}: ${where} has no ${c.code}: ${JSON.stringify(ds)}`);
        assert.ok(d.message.includes(`"${c.written}"`), `${label}: ${where} names the path as written: ${d.message}`);
        if (c.rule) assert.match(d.message, c.rule, `${label}: ${where}`);
      }
      if (c.runMessage)
        assert.ok(
          o.run.some((d) => c.runMessage!.test(d.message)),
          `${label}: run: ${JSON.stringify(o.run)}`,
        );
      if (c.reads !== 'skip') {
        for (const [read, outcome] of Object.entries(o.reads)) {
          if (c.reads === 'ok') assert.equal(outcome, 'ok', `${label}: ${read}`);
          else assert.notEqual(outcome, 'ok', `${label}: ${read} was allowed`);
        }
      }
      if (c.kind === 'data')
        assert.equal(o.quickFixes.length, c.reads === 'ok' ? 1 : 0, `${label}: quick fixes ${o.quickFixes.join()}`);
      assert.match(o.cacheKey, /^[0-9a-f]{64}$/, `${label}: the run cache keyed it`);
    }
    // The chain that stays inside is read: the quick fix brings good.csv's rows inline.
    assert.match(outcomes[2]!.quickFixes[0]!, /1, 2\\n.*3, 4/);
  } finally {
    rmSync(tree.root, { recursive: true, force: true });
  }
});
