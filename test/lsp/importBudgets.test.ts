/**
 * An imported network is read within the budgets of the memory setting (bayes.run.memoryMb, the
 * CLI's --max-memory), as the run reads it: a table of 4,194,304 entries (X with 21 binary
 * parents, its rows given by one `default`) is over the 1,638,400 that 200 MB allows, and refused
 * on the import's path with the budget's message; the default 2 GB (16,777,216) accepts it. Both
 * reads are held to it: a small file parsed on the server's thread, a large one in its worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import { IN_THREAD_BYTES } from '../../server/src/workspace/networkReads.js';

const PARENTS = 21;

function bigTableBif(padding: number): string {
  const parents = Array.from({ length: PARENTS }, (_, i) => `P${i}`);
  return [
    ' '.repeat(padding) + 'network big {}',
    ...[...parents, 'X'].map((v) => `variable ${v} { type discrete [ 2 ] { a, b }; }`),
    ...parents.map((p) => `probability ( ${p} ) { table 0.5, 0.5; }`),
    `probability ( X | ${parents.join(', ')} ) { default 0.3, 0.7; }`,
    '',
  ].join('\n');
}

const OVER_BUDGET =
  /^cannot read network "big\.bif": line 45: the table of 'X' needs 4,194,304 entries, over the budget of 1,638,400$/;
const MODEL = 'import network Big from "big.bif"\nquery P(P0) in Big\n';

type Found = { message: string; line: number; character: number };

async function importErrors(dir: string, settings: Record<string, unknown>): Promise<Found[]> {
  const lsp = await startLsp({ rootPath: dir, settings });
  try {
    const published = await lsp.open(fileUri(join(dir, 'm.bayes')), MODEL);
    return published.diagnostics
      .filter((d) => d.severity === 1)
      .map((d) => ({ message: d.message, line: d.range.start.line, character: d.range.start.character }));
  } finally {
    await lsp.close();
  }
}

for (const [where, padding] of [
  ['on the server thread', 0],
  ['in the read worker', IN_THREAD_BYTES + 1],
] as const) {
  test(`an imported network read ${where}: bayes.run.memoryMb 200 refuses its table on the import's path; the default accepts it`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bayes-import-budget-'));
    try {
      writeFileSync(join(dir, 'big.bif'), bigTableBif(padding));
      const small = await importErrors(dir, { run: { memoryMb: 200, timeoutSeconds: 60 } });
      assert.equal(small.length, 1, JSON.stringify(small));
      assert.match(small[0]!.message, OVER_BUDGET);
      // The path's string literal: `import network Big from "big.bif"` (column 24).
      assert.deepEqual([small[0]!.line, small[0]!.character], [0, 24]);
      assert.deepEqual(await importErrors(dir, { run: { timeoutSeconds: 60 } }), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('bayes check --max-memory 200 refuses the imported table on the import path; without it the model checks clean', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-budget-'));
  try {
    writeFileSync(join(dir, 'big.bif'), bigTableBif(0));
    writeFileSync(join(dir, 'm.bayes'), MODEL);
    const check = (...extra: string[]) =>
      spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), 'check', 'm.bayes', ...extra], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const small = check('--max-memory', '200');
    assert.equal(small.status, 1, small.stderr + small.stdout);
    assert.match(
      small.stdout + small.stderr,
      /m\.bayes:1:25: error: cannot read network "big\.bif": line 45: the table of 'X' needs 4,194,304 entries, over the budget of 1,638,400/,
    );
    const plain = check();
    assert.equal(plain.status, 0, plain.stderr + plain.stdout);
    assert.match(plain.stdout, /no problems/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
