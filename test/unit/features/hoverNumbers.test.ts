/**
 * Result hovers and inlay hints read as answers: no internal keys (`rows.prior`,
 * `rows.hypothesisBits`, cost and budget), no raw floats, significant digits kept at the
 * `bayes.precision` setting; sampled answers carry their standard error, MPE and sensitivity
 * show their whole answer. Checked on real runs of the example models.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from '../../../server/src/language/index.js';
import { hover } from '../../../server/src/features/hover.js';
import { inlayHints } from '../../../server/src/features/inlayHints.js';
import { formatNumber, setPrecision, tidyNumbers } from '../../../server/src/features/resultView.js';
import type { RunResult } from '../../../server/src/protocol/runResult.js';
import { runExample } from '../run/helpers.js';
import { repoRoot } from '../../support/shared.js';

after(() => setPrecision(4));

const INTERNAL = /\brows\.|\btable\.|hypothesisBits|dataBits|totalBits|\bcost\b|\bbudget\b|elapsedMs/;
/**
 * A float as JavaScript prints it unrounded: binary noise after the digits that count
 * (0.10773000000000002, 0.30000000000000004, 0.7999999999999999), or 16 and more significant digits.
 */
const RAW_FLOAT = /\.\d*[1-9](0{6,}|9{6,})\d|\.0*[1-9]\d{15,}/;

function hoverLines(name: string, run: RunResult): { line: number; text: string }[] {
  const text = readFileSync(join(repoRoot, 'examples', name), 'utf8');
  const ast = parseDocument(text).ast;
  const lines = [...new Set(run.results.map((r) => r.range.start.line))];
  return lines.map((line) => {
    const h = hover(ast, { line, character: 0 }, run);
    return { line, text: h ? (h.contents as { value: string }).value : '' };
  });
}

test('significant digits: 0.00784 stays 0.00784, raw floats are rounded, one precision for all', () => {
  setPrecision(4);
  assert.equal(formatNumber(0.00784), '0.00784');
  assert.equal(formatNumber(0.10773000000000002), '0.1077');
  assert.equal(formatNumber(0.5), '0.5');
  assert.equal(formatNumber(7.84e-6), '7.84e-6');
  assert.equal(tidyNumbers('cancer · 0.10773000000000002, odds 12.345678'), 'cancer · 0.1077, odds 12.35');
  assert.equal(tidyNumbers('line 3 of 10, v1.2x'), 'line 3 of 10, v1.2x', 'integers and names are left alone');
  setPrecision(6);
  assert.equal(formatNumber(0.10773000000000002), '0.10773');
  assert.equal(formatNumber(2 / 3), '0.666667');
  setPrecision(2);
  assert.equal(formatNumber(0.00784), '0.0078');
  setPrecision(4);
});

for (const name of ['cancer.bayes', 'alarm.bayes', 'soft_evidence.bayes', 'decision_trees.bayes']) {
  test(`${name}: no hover shows an internal key or a raw float`, async () => {
    setPrecision(4);
    const run = await runExample(name);
    const hovers = hoverLines(name, run);
    assert.ok(hovers.length > 0);
    const text = readFileSync(join(repoRoot, 'examples', name), 'utf8');
    // Numbers the model itself writes (an expect's 0.814885858333098) are the user's, not raw floats.
    const written = new Set(text.match(/\d+\.\d+/g) ?? []);
    const unwritten = (s: string) => s.replace(/\d+\.\d+/g, (n) => (written.has(n) ? '' : n));
    for (const h of hovers) {
      assert.doesNotMatch(h.text, INTERNAL, `line ${h.line + 1}:\n${h.text}`);
      assert.doesNotMatch(unwritten(h.text), RAW_FLOAT, `line ${h.line + 1}:\n${h.text}`);
    }
    const everything = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } };
    for (const hint of inlayHints(text, run, everything)) {
      assert.doesNotMatch(String(hint.label), RAW_FLOAT, `inlay hint on line ${hint.position.line + 1}`);
    }
  });
}

test('alarm: the sampled query shows ± standard errors; MPE shows all 37 variables; sensitivity every parameter', async () => {
  setPrecision(4);
  const run = await runExample('alarm.bayes');
  const text = readFileSync(join(repoRoot, 'examples', 'alarm.bayes'), 'utf8');
  const lineOf = (start: string) => text.split('\n').findIndex((l) => l.startsWith(start));
  const ast = parseDocument(text).ast;
  const at = (start: string) =>
    (hover(ast, { line: lineOf(start), character: 0 }, run)!.contents as { value: string }).value;

  const sampled = at('query P(PULMEMBOLUS) in Alarm using likelihood_weighting');
  const entry = run.results.find((r) => r.kind === 'probability' && r.method === 'lw');
  assert.ok(entry && entry.kind === 'probability');
  for (const row of entry.table) {
    assert.ok(row.stderr !== undefined);
    assert.ok(sampled.includes(`= ${formatNumber(row.p)} ± ${formatNumber(row.stderr)}`), sampled);
  }
  assert.match(sampled, /likelihood weighting, 50000 samples, seed 1: each probability ± its standard error/);

  const mpe = at('query mpe Alarm');
  const mpeEntry = run.results.find((r) => r.kind === 'mpe');
  assert.ok(mpeEntry && mpeEntry.kind === 'mpe');
  const whole = { ...mpeEntry.assignment, ...mpeEntry.evidence };
  assert.equal(Object.keys(whole).length, 37);
  for (const [v, s] of Object.entries(whole)) assert.match(mpe, new RegExp(`\\| ${v} \\| ${s} \\|`), `${v} = ${s}`);
  assert.match(mpe, /\| PAP \| HIGH \| observed \|/);
  assert.ok(mpe.includes(`P(assignment, evidence) = **${formatNumber(mpeEntry.probability)}**`));

  const sens = at('query sensitivity');
  const sensEntry = run.results.find((r) => r.kind === 'sensitivity');
  assert.ok(sensEntry && sensEntry.kind === 'sensitivity');
  const rows = sens.split('\n').filter((l) => l.startsWith('| P('));
  assert.equal(rows.length, sensEntry.parameters.length, 'one row per parameter');
  assert.ok(sens.includes(`P(PULMEMBOLUS = TRUE | PAP = HIGH) = **${formatNumber(sensEntry.value)}**`), sens);
});
