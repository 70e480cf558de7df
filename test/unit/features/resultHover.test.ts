/**
 * Hover and inlay hints read the last RunResult by shape, whatever kinds the engines add. The
 * entries below are fixtures in the shapes the engine branches declare (a posterior record,
 * `marginals` by variable, probability tables as rows, expect verdicts): what is tested is how
 * the editor presents them, not the numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from '../../../server/src/language/index.js';
import { hover } from '../../../server/src/features/hover.js';
import { inlayHints } from '../../../server/src/features/inlayHints.js';
import { explainEntry } from '../../../server/src/features/resultExplain.js';
import type { ResultEntry, RunResult } from '../../../server/src/protocol/runResult.js';
import { repoRoot } from '../../support/shared.js';
import { positionOf } from '../../support/edits.js';

const read = (name: string) => readFileSync(join(repoRoot, 'examples', name), 'utf8');
const lineRange = (text: string, needle: string) => {
  const line = positionOf(text, needle).line;
  return { start: { line, character: 0 }, end: { line, character: text.split('\n')[line].length } };
};
const run = (results: ResultEntry[]): RunResult => ({ version: 1, file: 'm.bayes', diagnostics: [], results });

test('a hypothesis hover gives P(h), P(D|h), P(h|D) with its rank and the MDL bits per statement, and marks h_MAP, h_ML, h_MDL', () => {
  const text = read('cancer.bayes');
  const posterior = lineRange(text, 'query posterior');
  const mdl = lineRange(text, 'query mdl');
  // Shapes of PosteriorResult and MdlResult (server/src/run/runResult.ts).
  const result = run([
    {
      kind: 'posterior',
      range: posterior,
      source: 'query posterior Diagnosis given Test = pos',
      headline: 'healthy · 0.7915',
      rows: [
        { hypothesis: 'cancer', prior: 0.008, likelihood: 0.98, product: 0.00784, posterior: 0.2085 },
        { hypothesis: 'healthy', prior: 0.992, likelihood: 0.03, product: 0.02976, posterior: 0.7915 },
      ],
      evidence: 0.0376,
      evidencePossible: true,
      map: ['healthy'],
      ml: ['cancer'],
    },
    {
      kind: 'mdl',
      range: mdl,
      source: 'query mdl Diagnosis given Test = pos',
      headline: 'healthy · 5.07 bits',
      rows: [
        { hypothesis: 'cancer', hypothesisBits: 6.966, dataBits: 0.029, totalBits: 6.995 },
        { hypothesis: 'healthy', hypothesisBits: 0.012, dataBits: 5.059, totalBits: 5.071 },
      ],
      best: ['healthy'],
      code: '−log2 P(h), −log2 P(D|h)',
    },
  ]);
  const shown = hover(parseDocument(text).ast, positionOf(text, 'healthy: 0.992'), result)!.contents as {
    value: string;
  };
  assert.equal(
    shown.value,
    [
      'hypothesis **healthy** of Diagnosis · prior P(healthy) = 0.992',
      '---',
      [
        `- \`query posterior Diagnosis given Test = pos\` (line ${posterior.start.line + 1}): P(healthy) = 0.992 · P(D | healthy) = 0.03 · P(healthy | D) = **0.7915**, rank 1 of 2 · ★ h_MAP`,
        `- \`query mdl Diagnosis given Test = pos\` (line ${mdl.start.line + 1}): L(healthy) + L(D | healthy) = 0.012 + 5.059 = **5.071** bits, rank 1 of 2 · ★ h_MDL`,
      ].join('\n'),
    ].join('\n\n'),
  );
  const cancer = (
    hover(parseDocument(text).ast, positionOf(text, 'cancer:  0.008'), result)!.contents as { value: string }
  ).value;
  assert.match(cancer, /P\(cancer \| D\) = \*\*0.2085\*\*, rank 2 of 2 · ★ h_ML\n/);
  assert.match(cancer, /= \*\*6.995\*\* bits, rank 2 of 2$/);
});

test('a variable hover shows its marginal filed under its name, as bars', () => {
  const text = read('forest.bayes');
  const result = run([
    {
      kind: 'marginals',
      range: lineRange(text, 'query mpe'),
      source: 'query mpe Forest given Thunder = true',
      headline: '…',
      network: 'Forest',
      evidence: { Thunder: 'true' },
      method: 'exact',
      cost: 16,
      budget: 4194304,
      marginals: { Storm: { true: 0.25, false: 0.75 }, Thunder: { true: 1, false: 0 } },
    },
  ]);
  const shown = (
    hover(parseDocument(text).ast, positionOf(text, 'P(Storm)', 0, 2), result)!.contents as { value: string }
  ).value;
  assert.ok(
    shown.endsWith(
      '`query mpe Forest given Thunder = true` — marginals.Storm\n\n```text\ntrue   █████░░░░░░░░░░░░░░░  0.25\nfalse  ███████████████░░░░░  0.75\n```',
    ),
    shown,
  );
  assert.ok(!shown.includes('marginals.Thunder'));
});

test('hovering a query line shows its whole result, tables given as rows read as distributions', () => {
  const text = read('forest.bayes');
  const range = lineRange(text, 'query P(ForestFire | Thunder');
  const result = run([
    {
      kind: 'probability',
      range,
      source: 'query P(ForestFire | Thunder = true, BusTourGroup = true) in Forest',
      headline: 'true · 0.7031',
      network: 'Forest',
      method: 'exact',
      table: [
        { states: ['true'], p: 0.703133 },
        { states: ['false'], p: 0.296867 },
      ],
      variables: ['ForestFire'],
      evidence: { Thunder: 'true', BusTourGroup: 'true' },
      cost: 16,
      budget: 4194304,
    },
  ]);
  const shown = (
    hover(parseDocument(text).ast, { line: range.start.line, character: 2 }, result)!.contents as { value: string }
  ).value;
  assert.ok(shown.startsWith('**probability** — true · 0.7031\n\nnetwork: Forest\n\nmethod: exact\n\n'), shown);
  assert.ok(
    shown.endsWith('table:\n\n```text\ntrue   ██████████████░░░░░░  0.7031\nfalse  ██████░░░░░░░░░░░░░░  0.2969\n```'),
    shown,
  );
});

test('inlay hints: the headline after each result line, the actual value after a failed expect, a tick after a passing one', () => {
  const text = read('cancer.bayes');
  const q = lineRange(text, 'query posterior');
  const failed = lineRange(text, 'expect P(Diagnosis = cancer | Test = pos)');
  const passed = lineRange(text, 'expect map Diagnosis');
  const result = run([
    {
      kind: 'posterior',
      range: q,
      source: '',
      headline: 'healthy · 0.79',
      rows: [],
      evidence: 0.0376,
      evidencePossible: true,
      map: ['healthy'],
      ml: ['cancer'],
    },
    {
      kind: 'expect',
      range: failed,
      source: '',
      headline: '0.3',
      passed: false,
      actual: 0.30000000000000004,
      expected: '≈ 0.2085 ± 0.0001',
    },
    {
      kind: 'expect',
      range: passed,
      source: '',
      headline: 'healthy',
      passed: true,
      actual: 'healthy',
      expected: '= healthy',
    },
  ]);
  const hints = inlayHints(text, result, { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } });
  assert.deepEqual(
    hints.map((h) => [h.position.line, h.position.character, h.label]),
    [
      [q.start.line, q.end.character, '⇒ healthy · 0.79'],
      [failed.start.line, failed.end.character, '✗ actual 0.3'],
      [passed.start.line, passed.end.character, '✓'],
    ],
  );
  assert.deepEqual(
    inlayHints(text, result, { start: { line: 0, character: 0 }, end: { line: q.start.line - 1, character: 0 } }),
    [],
  );
});

test('result hovers without a posterior or without counts: impossible evidence says so, smoothed factors show their values', () => {
  const impossible = explainEntry({
    kind: 'posterior',
    range: lineRange(read('cancer.bayes'), 'query posterior'),
    source: '',
    headline: 'evidence has probability 0',
    rows: [
      { hypothesis: 'twoHeaded', prior: 0.5, likelihood: 0, product: 0 },
      { hypothesis: 'twoTailed', prior: 0.5, likelihood: 0, product: 0 },
    ],
    evidence: 0,
    evidencePossible: false,
    map: [],
    ml: ['twoHeaded', 'twoTailed'],
    data: 'Coin = heads, Coin = tails',
  });
  assert.ok(impossible.includes('Bayes theorem (Mitchell eq. 6.2), D = Coin = heads, Coin = tails:'), impossible);
  assert.ok(
    impossible.includes(
      'P(D | twoTailed) P(twoTailed) = 0 × 0.5 = 0\nP(D) = 0: no hypothesis can produce the data, there is no posterior\n',
    ),
    impossible,
  );
  assert.ok(impossible.endsWith('h_MAP = — · h_ML = twoHeaded, twoTailed'), impossible);
  const smoothed = explainEntry({
    kind: 'classify',
    range: lineRange(read('playtennis.bayes'), 'query classify'),
    source: '',
    headline: 'No · 0.75',
    classifier: 'NB',
    classes: [
      {
        value: 'Yes',
        score: 0.1,
        posterior: 0.25,
        factors: [
          { term: 'P(Yes)', p: 0.5, count: 1, total: 2 },
          { term: 'P(Sunny|Yes)', p: 0.2 },
        ],
      },
      {
        value: 'No',
        score: 0.3,
        posterior: 0.75,
        factors: [
          { term: 'P(No)', p: 0.5, count: 1, total: 2 },
          { term: 'P(Sunny|No)', p: 0.6 },
        ],
      },
    ],
    predicted: 'No',
    ignored: [{ attribute: 'Wind', value: 'Calm', reason: 'unseen' }],
  });
  assert.ok(
    smoothed.includes(
      'P(Yes) P(Sunny|Yes) = 1/2 · 0.2 = 0.1\nP(No) P(Sunny|No) = 1/2 · 0.6 = 0.3\nP(No | x) = 0.3 / (0.1 + 0.3) = 0.75\n',
    ),
    smoothed,
  );
  assert.ok(smoothed.includes('left out of the product: Wind = Calm (unseen)'), smoothed);
});
