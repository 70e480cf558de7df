/** Formatting, completion, signature help, semantic tokens, hover and code lens over the protocol. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startLsp, exampleDocument, type LspSession, type PublishedDiagnostics } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import { applyEdits, decodeSemanticTokens, positionOf, type TextEdit } from '../support/edits.js';

/** The token legend the server is expected to declare (written out here, not imported, so a change shows). */
const LEGEND = {
  types: [
    'keyword',
    'variable',
    'enumMember',
    'type',
    'namespace',
    'struct',
    'class',
    'property',
    'function',
    'number',
    'string',
    'comment',
  ],
  modifiers: ['declaration', 'documentation', 'defaultLibrary'],
};

const examplesDir = join(repoRoot, 'examples');
const FORMAT_OPTIONS = { tabSize: 2, insertSpaces: true };

describe('editing', () => {
  let lsp: LspSession;
  before(async () => {
    lsp = await startLsp();
  });
  after(async () => {
    await lsp.close();
  });

  const format = (uri: string) =>
    lsp.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri }, options: FORMAT_OPTIONS });
  const labels = async (uri: string, position: { line: number; character: number }) =>
    (await lsp.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position })).map(
      (i) => i.label,
    );

  test('formatting is idempotent on every example and keeps every comment', async () => {
    const names = readdirSync(examplesDir).filter((f) => f.endsWith('.bayes'));
    assert.ok(names.length >= 8);
    for (const name of names) {
      const { uri, text } = exampleDocument(name);
      await lsp.open(uri, text);
      const once = applyEdits(text, await format(uri));
      const formattedUri = uri.replace(/\.bayes$/, '.formatted.bayes');
      const errors = (p: PublishedDiagnostics) => p.diagnostics.filter((d) => d.severity === 1).map((d) => d.message);
      // The same diagnostics before and after (newsgroups reads ../shared, outside the workspace).
      assert.deepEqual(
        errors(await lsp.open(formattedUri, once)),
        errors(await lsp.open(uri + '.orig.bayes', text)),
        `${name} checks the same`,
      );
      assert.deepEqual(await format(formattedUri), [], `${name}: formatting the formatted text changes nothing`);
      const comments = (t: string) => t.split('\n').flatMap((l) => /\/\/.*$/.exec(l)?.[0] ?? []);
      assert.deepEqual(comments(once), comments(text), `${name}: comments kept`);
    }
  });

  test('formatting indents by depth and aligns CPT rows; a file with syntax errors is left alone', async () => {
    const uri = 'file:///virtual/messy.bayes';
    const messy =
      'network N {\nvariable A, B : bool\n   P(A) = 0.3\nP(B | A) {\ntrue: 0.25\n      false:    0.5   // low\n}\n}\n\n\n';
    await lsp.open(uri, messy);
    assert.equal(
      applyEdits(messy, await format(uri)),
      'network N {\n  variable A, B : bool\n  P(A) = 0.3\n  P(B | A) {\n    true:  0.25\n    false: 0.5  // low\n  }\n}\n',
    );
    const broken = 'file:///virtual/broken.bayes';
    await lsp.open(broken, 'variable A { x, y\n   P(A) = 0.3\n');
    assert.deepEqual(await format(broken), []);
  });

  test('completion offers keywords, parents, values and names of the expected kind', async () => {
    const forest = exampleDocument('forest.bayes');
    await lsp.open(forest.uri, forest.text);
    const parents = await labels(forest.uri, positionOf(forest.text, 'P(Campfire | Storm', 0, 'P(Campfire | '.length));
    assert.deepEqual(parents.sort(), ['BusTourGroup', 'Campfire', 'ForestFire', 'Lightning', 'Storm', 'Thunder']);
    const values = await labels(forest.uri, positionOf(forest.text, 'Thunder = true, Bus', 0, 'Thunder = '.length));
    assert.deepEqual(values, ['true', 'false']);
    // A network's own variables come first when the query says `in Forest` later on the line.
    const scoped = await labels(
      forest.uri,
      positionOf(forest.text, 'query P(ForestFire | Thunder', 0, 'query P(ForestFire | '.length),
    );
    assert.deepEqual(scoped.slice(0, 6), ['Storm', 'BusTourGroup', 'Lightning', 'Thunder', 'Campfire', 'ForestFire']);
    const networks = await labels(forest.uri, positionOf(forest.text, 'in Forest', 0, 'in '.length));
    assert.deepEqual(networks, ['Forest']);

    const cancer = exampleDocument('cancer.bayes');
    await lsp.open(cancer.uri, cancer.text);
    assert.deepEqual(await labels(cancer.uri, positionOf(cancer.text, 'Test = pos', 0, 'Test = '.length)), [
      'pos',
      'neg',
    ]);
    const rowStates = await labels(cancer.uri, positionOf(cancer.text, 'pos: 98%', 0));
    assert.deepEqual(rowStates, ['pos', 'neg']);
    const rowKeys = await labels(cancer.uri, positionOf(cancer.text, 'cancer:  {', 0));
    assert.deepEqual(rowKeys, ['cancer', 'healthy']);
    const forms = await labels(cancer.uri, positionOf(cancer.text, 'query posterior', 0, 'query '.length));
    assert.ok(forms.includes('posterior') && forms.includes('map') && forms.includes('mdl'));
    const keywords = await labels(cancer.uri, { line: positionOf(cancer.text, 'query posterior').line, character: 0 });
    assert.ok(
      ['variable', 'hypotheses', 'network', 'data', 'query', 'expect', 'learn'].every((k) => keywords.includes(k)),
    );

    const tennis = exampleDocument('playtennis.bayes');
    await lsp.open(tennis.uri, tennis.text);
    const instance = await labels(tennis.uri, positionOf(tennis.text, 'Outlook: Sunny', 0, 'Outlook: '.length));
    assert.deepEqual(instance, ['Sunny', 'Overcast', 'Rain']);
  });

  test('signature help follows the argument under the cursor', async () => {
    const tennis = exampleDocument('playtennis.bayes');
    type Help = { signatures: { label: string }[]; activeParameter: number } | null;
    const help = (position: { line: number; character: number }) =>
      lsp.request<Help>('textDocument/signatureHelp', { textDocument: { uri: tennis.uri }, position });
    const inTarget = await help(positionOf(tennis.text, 'target: Play', 0, 'target: '.length));
    assert.equal(inTarget?.signatures[0].label, 'naive_bayes(data, target, smoothing)');
    assert.equal(inTarget?.activeParameter, 1);
    assert.equal((await help(positionOf(tennis.text, 'smoothing: none', 0, 3)))?.activeParameter, 2);
    assert.equal(await help(positionOf(tennis.text, 'variable Outlook')), null);
  });

  test('semantic tokens decode to names coloured by what they are', async () => {
    const forest = exampleDocument('forest.bayes');
    const { data } = await lsp.request<{ data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri: forest.uri },
    });
    const tokens = decodeSemanticTokens(data, forest.text, LEGEND.types, LEGEND.modifiers);
    const at = (needle: string, shift = 0) => {
      const p = positionOf(forest.text, needle, 0, shift);
      return tokens.find((t) => t.line === p.line && t.character === p.character);
    };
    assert.deepEqual(at('network Forest'), { ...at('network Forest')!, text: 'network', type: 'keyword' });
    assert.deepEqual(at('Forest {', 0), {
      ...at('Forest {')!,
      text: 'Forest',
      type: 'namespace',
      modifiers: ['declaration'],
    });
    assert.equal(at('Storm, Bus')?.type, 'variable');
    assert.deepEqual(at('true,  true:')?.modifiers, ['defaultLibrary']);
    assert.equal(at('true,  true:')?.type, 'enumMember');
    assert.equal(at('0.3')?.type, 'number');
    assert.equal(at('likelihood_weighting')?.type, undefined, 'a method name is left to the grammar');
    assert.equal(at('samples:')?.type, 'property');
    assert.deepEqual(at('/// Mitchell'), { ...at('/// Mitchell')!, type: 'comment', modifiers: ['documentation'] });
  });

  test('semantic tokens after an edit come as a delta of the last ones sent, and a range as the full tokens of its lines', async () => {
    const tennis = exampleDocument('playtennis.bayes');
    const uri = tennis.uri.replace(/\.bayes$/, '.delta.bayes');
    await lsp.open(uri, tennis.text);
    type Full = { resultId: string; data: number[] };
    type Delta = { resultId: string; edits: { start: number; deleteCount: number; data: number[] }[] };
    const first = await lsp.request<Full>('textDocument/semanticTokens/full', { textDocument: { uri } });
    // A value renamed in one data row: its cell's token changes length, nothing else.
    const at = positionOf(tennis.text, 'Sunny', 3);
    const edited = applyEdits(tennis.text, [
      { range: { start: at, end: { line: at.line, character: at.character + 5 } }, newText: 'Overcast' },
    ]);
    const patched = [...first.data];
    let resultId = first.resultId;
    const change = async (text: string, version: number) => {
      await lsp.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      const delta = await lsp.request<Delta>('textDocument/semanticTokens/full/delta', {
        textDocument: { uri },
        previousResultId: resultId,
      });
      for (const e of [...delta.edits].reverse()) patched.splice(e.start, e.deleteCount, ...e.data);
      resultId = delta.resultId;
      return delta;
    };
    const delta = await change(edited, 2);
    assert.ok(
      delta.edits.length === 1 && delta.edits[0].data.length <= 5,
      `one token changed: ${JSON.stringify(delta.edits)}`,
    );
    // More edits, each a delta of the last (the server encodes into the memory of the tokens before): back and forth.
    await change(tennis.text, 3);
    await change(edited.replace('Mild', 'Cool'), 4);
    await change(edited, 5);
    const full = await lsp.request<Full>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.deepEqual(patched, full.data);
    // An unknown previous result: the full tokens.
    const stale = await lsp.request<Full>('textDocument/semanticTokens/full/delta', {
      textDocument: { uri },
      previousResultId: 'gone',
    });
    assert.deepEqual(stale.data, full.data);

    const decode = (data: number[]) => decodeSemanticTokens(data, edited, LEGEND.types, LEGEND.modifiers);
    const range = { start: { line: at.line - 2, character: 0 }, end: { line: at.line + 1, character: 0 } };
    const ranged = await lsp.request<{ data: number[] }>('textDocument/semanticTokens/range', {
      textDocument: { uri },
      range,
    });
    const expected = decode(full.data).filter((t) => t.line >= range.start.line && t.line <= range.end.line);
    assert.ok(expected.length > 10);
    assert.deepEqual(decode(ranged.data), expected);
  });

  test('hover shows a hypothesis prior, a variable CPT as a table and the doc comment', async () => {
    const cancer = exampleDocument('cancer.bayes');
    type Hover = { contents: { value: string } } | null;
    const hover = (uri: string, p: { line: number; character: number }) =>
      lsp.request<Hover>('textDocument/hover', { textDocument: { uri }, position: p });
    const healthy = await hover(cancer.uri, positionOf(cancer.text, 'healthy: 0.992'));
    assert.equal(healthy?.contents.value, 'hypothesis **healthy** of Diagnosis · prior P(healthy) = 0.992');
    const forest = exampleDocument('forest.bayes');
    const campfire = await hover(forest.uri, positionOf(forest.text, 'expect P(Campfire', 0, 'expect P('.length));
    assert.equal(
      campfire?.contents.value,
      [
        'variable **Campfire** { true, false } in network Forest',
        '---',
        'Mitchell fig. 6.3: P(Campfire = true | Storm, BusTourGroup).',
        '| Storm | BusTourGroup | P(true) | P(false) |\n| --- | --- | --- | --- |\n| true | true | 0.4 | 0.6 |\n| true | false | 0.1 | 0.9 |\n| false | true | 0.8 | 0.2 |\n| false | false | 0.2 | 0.8 |',
      ].join('\n\n'),
    );
    const diagnosis = await hover(cancer.uri, positionOf(cancer.text, 'map Diagnosis', 0, 4));
    assert.match(
      diagnosis!.contents.value,
      /^hypotheses \*\*Diagnosis\*\* \{ cancer, healthy \}\n\n---\n\nThe hypothesis space H with the priors P\(h\)\./,
    );
    assert.match(
      diagnosis!.contents.value,
      /\| h \| P\(h\) \|\n\| --- \| --- \|\n\| cancer \| 0\.008 \|\n\| healthy \| 0\.992 \|/,
    );
    assert.match(
      diagnosis!.contents.value,
      /likelihood P\(Test \| Diagnosis\)\n\n\| Diagnosis \| P\(pos\) \| P\(neg\) \|\n\| --- \| --- \| --- \|\n\| cancer \| 98% \| 2% \|/,
    );
  });

  test('code lenses run the model, show its results and each network graph', async () => {
    const forest = exampleDocument('forest.bayes');
    const lenses = await lsp.request<
      { range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } }[]
    >('textDocument/codeLens', { textDocument: { uri: forest.uri } });
    assert.deepEqual(
      lenses.map((l) => [l.command.command, l.range.start.line]),
      [
        ['bayes.server.run', 0],
        ['bayes.showResults', 0],
        ['bayes.showGraph', positionOf(forest.text, 'network Forest').line],
      ],
    );
    assert.deepEqual(lenses[2].command.arguments, [forest.uri, 'Forest']);
  });
});
