/**
 * Completion knows where it is: declaration snippets only where a statement starts (never in a
 * table, a comment or a string), option names inside a query's or learn line's `{ … }`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver/node';
import { parseDocument } from '../../../server/src/language/index.js';
import { completion } from '../../../server/src/features/completion.js';
import { repoRoot } from '../../support/shared.js';

const MODEL = `variable Test { pos, neg }
hypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) {
  cancer:  { pos: 0.98, neg: 0.02 }
  healthy: { pos: 0.03, neg: 0.97 }
}
`;

/** Completion at the end of `line` (appended to MODEL, `rest` after the cursor). */
function at(line: string, rest = '', model = MODEL): CompletionItem[] {
  const text = model + line + rest;
  const lineNo = model.split('\n').length - 1;
  return completion(parseDocument(text).ast, text, { line: lineNo, character: line.length });
}
const snippetsOf = (items: CompletionItem[]) => items.filter((i) => i.kind === CompletionItemKind.Snippet);

test('a statement start offers keywords and every declaration snippet, as snippets', () => {
  const items = at('');
  const snippets = snippetsOf(items);
  const prefixes = snippets.map((s) => s.label);
  for (const form of [
    'variable',
    'hypotheses',
    'P',
    'network',
    'import network',
    'data',
    'corpus',
    'observe',
    'learn',
    'classifier',
    'mixture',
    'query posterior',
    'expect',
  ]) {
    assert.ok(prefixes.includes(form), `a snippet for ${form}`);
  }
  const variable = snippets.find((s) => s.label === 'variable')!;
  assert.equal(variable.insertTextFormat, InsertTextFormat.Snippet);
  assert.equal(variable.insertText, 'variable ${1:Name} { ${2:a}, ${3:b} }');
  assert.ok(items.some((i) => i.kind === CompletionItemKind.Keyword && i.label === 'query'));
  // VS Code adds contributed snippets everywhere: the package contributes none, the server places them.
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: Record<string, unknown>;
  };
  assert.equal(pkg.contributes['snippets'], undefined);
});

test('no snippet inside a table, a comment or a string', () => {
  const table = `P(Test | Diagnosis) {\n  cancer:  { pos: 0.98, neg: 0.02 }\n  `;
  const inTable = MODEL.replace(/P\(Test \| Diagnosis\) \{[\s\S]*$/, table);
  const items = at('', '\n}\n', inTable);
  assert.deepEqual(snippetsOf(items), [], 'inside a table');
  assert.ok(
    items.some((i) => i.label === 'healthy'),
    'a table row starts with a parent value',
  );
  assert.deepEqual(at('// a note about the '), [], 'in a comment');
  assert.deepEqual(at('query posterior Diagnosis given Test = pos  // see '), [], 'in a trailing comment');
  assert.deepEqual(at('import network Alarm from "data/al', '"'), [], 'in a string');
  assert.deepEqual(at('/// the '), [], 'in a doc comment');
});

test('option names inside `using … { }`, `{ seed: … }` and a learn line’s options, minus those given', () => {
  const labels = (line: string, rest = ' }') => at(line, rest).map((i) => i.label);
  assert.deepEqual(labels('query P(Test) using gibbs { '), ['samples', 'seed', 'burn_in', 'budget']);
  assert.deepEqual(labels('query P(Test) using likelihood_weighting { samples: 1000, '), ['seed', 'burn_in', 'budget']);
  assert.deepEqual(labels('expect P(Test = pos) using gibbs { seed: 1, samples: 5, '), ['burn_in', 'budget']);
  // A learn line offers its method's options (the table the checker and the run read).
  assert.deepEqual(labels('learn Net from D by em { '), ['iterations', 'tolerance', 'seed', 'restarts']);
  assert.deepEqual(labels('learn Net from D by em { seed: 3, '), ['iterations', 'tolerance', 'restarts']);
  assert.deepEqual(labels('learn structure S from D by pc { alpha: 0.01, '), [
    'test',
    'max_conditioning',
    'score',
    'ess',
    'require',
    'forbid',
    'tiers',
  ]);
  assert.deepEqual(labels('learn Net from D by counting { '), [], 'counting takes no options');
  assert.ok(labels('learn Net from D { ').includes('tabu'), 'no method named: every option');
  // Soft evidence braces hold states, not options.
  assert.deepEqual(labels('query P(Diagnosis | Test ~ { ', ' })'), ['pos', 'neg']);
});

test('after `classifier C =` and `mixture M =` completion offers functions, not learning methods', () => {
  const labels = at('classifier C = ').map((i) => i.label);
  assert.ok(labels.includes('naive_bayes') && labels.includes('gaussians'), labels.join(', '));
  assert.ok(!labels.includes('em') && !labels.includes('hillclimb'), labels.join(', '));
});
