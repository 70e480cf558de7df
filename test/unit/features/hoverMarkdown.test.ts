/**
 * Names are the user's or an imported file's: inside a hover they are text, never Markdown. A
 * state holding a ``` line cannot close the code block it is shown in, and `![x](http://…)` is
 * not an image from another host, in code blocks, tables and plain text alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { hover } from '../../../server/src/features/hover.js';
import { explainEntry } from '../../../server/src/features/resultExplain.js';
import { codeBlock, codeSpan } from '../../../server/src/features/resultView.js';
import type { MarginalsResult, ProbabilityResult } from '../../../server/src/protocol/runResult.js';

const FENCE = 'x\n```\n![x](http://evil.example/a.png)';
const IMAGE = '![x](http://evil.example/a.png)';
const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } };

interface Parsed {
  blocks: string[];
  prose: string;
}

/** CommonMark's fences: a block closes at the first line of backticks at least as long as its opening. */
function parse(markdown: string): Parsed {
  const lines = markdown.split(/\r\n?|\n/);
  const blocks: string[] = [];
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,})[^`]*$/.exec(lines[i]!);
    if (!open) {
      prose.push(lines[i]!);
      continue;
    }
    const body: string[] = [];
    for (i++; i < lines.length; i++) {
      const close = /^ {0,3}(`+)\s*$/.exec(lines[i]!);
      if (close && close[1]!.length >= open[1]!.length) break;
      body.push(lines[i]!);
    }
    blocks.push(body.join('\n'));
  }
  return { blocks, prose: prose.join('\n') };
}

/** Inline Markdown a name must not make: an image, a link, HTML, or a code span left open. */
function assertInert(prose: string): void {
  assert.doesNotMatch(prose, /(^|[^\\])!\[/, prose);
  assert.doesNotMatch(prose, /(^|[^\\])\]\(/, prose);
  assert.doesNotMatch(prose, /(^|[^\\])</, prose);
}

test('codeBlock and codeSpan: a fence or span longer than any backtick run in the content', () => {
  const block = codeBlock(['a ```` b', '```']);
  assert.equal(block, '`````text\na ```` b\n```\n`````');
  assert.deepEqual(parse(block).blocks, ['a ```` b\n```']);
  assert.equal(codeSpan('P(`x`)'), '``P(`x`)``');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.equal(codeSpan('a\nb'), '`a b`');
});

test('marginals: a state holding a ``` line stays inside its table and is escaped', () => {
  const entry: MarginalsResult = {
    kind: 'marginals',
    range,
    source: 'query marginals',
    headline: IMAGE,
    network: 'n',
    evidence: { [IMAGE]: FENCE },
    marginals: { A: { [FENCE]: 0.25, [IMAGE]: 0.75 } },
    method: 'exact',
    cost: 2,
    budget: 4,
  };
  const markdown = explainEntry(entry);
  const { blocks, prose } = parse(markdown);
  assert.deepEqual(blocks, []);
  assertInert(prose);
  // Each table row is one line: the line breaks of a name do not end it.
  assert.equal(prose.split('\n').filter((l) => l.startsWith('| A |')).length, 1);
});

test('probability: the text block holds every row, its fence longer than the ``` a state holds', () => {
  const entry: ProbabilityResult = {
    kind: 'probability',
    range,
    source: 'query P(A)',
    headline: 'P',
    network: 'n',
    variables: ['A'],
    evidence: {},
    table: [
      { states: [FENCE], p: 0.25 },
      { states: ['safe'], p: 0.75 },
    ],
    method: 'exact',
    cost: 2,
    budget: 4,
  };
  const { blocks, prose } = parse(explainEntry(entry));
  assert.equal(blocks.length, 1);
  assert.ok(blocks[0]!.includes(`P(A = ${FENCE}) = 0.25`), blocks[0]);
  assert.ok(blocks[0]!.includes('P(A = safe) = 0.75'), blocks[0]);
  assertInert(prose);
});

test("a variable's hover: quoted states holding ``` and an image are shown as text", () => {
  const text = `variable A { "\`\`\`", "${IMAGE}" }\n`;
  const d = parseDocument(text);
  assert.deepEqual(d.diagnostics, []);
  const h = hover(d.ast, { line: 0, character: 9 }, undefined);
  const value = (h?.contents as { value: string }).value;
  const { blocks, prose } = parse(value);
  assert.deepEqual(blocks, []);
  assertInert(prose);
  assert.ok(prose.includes('\\`\\`\\`'), prose);
});
