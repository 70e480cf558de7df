/** Definition, references, rename, outline and folding over the protocol, on the examples. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLsp, exampleDocument, type LspSession } from '../support/lspClient.js';
import { applyEdits, positionOf, type TextEdit } from '../support/edits.js';

/** Whole-word uses of a name outside comments, as positions. */
function usesOf(text: string, word: string): { line: number; character: number }[] {
  const found: { line: number; character: number }[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const m of code.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) found.push({ line: i, character: m.index! });
  });
  return found;
}
type Location = { uri: string; range: { start: { line: number; character: number } } };

describe('navigation', () => {
  let lsp: LspSession;
  before(async () => {
    lsp = await startLsp();
  });
  after(async () => {
    await lsp.close();
  });

  const renameAndRecheck = async (
    doc: { uri: string; text: string },
    at: { line: number; character: number },
    newName: string,
  ) => {
    const edit = await lsp.request<{ changes: Record<string, TextEdit[]> }>('textDocument/rename', {
      textDocument: { uri: doc.uri },
      position: at,
      newName,
    });
    const renamed = applyEdits(doc.text, edit.changes[doc.uri]);
    const published = await lsp.open(doc.uri.replace(/\.bayes$/, `.${newName}.bayes`), renamed);
    assert.deepEqual(
      published.diagnostics.filter((d) => d.severity === 1),
      [],
      'the renamed model checks clean',
    );
    return { renamed, edits: edit.changes[doc.uri] };
  };

  test('definition and references of a network variable land on every use', async () => {
    const forest = exampleDocument('forest.bayes');
    await lsp.open(forest.uri, forest.text);
    const use = positionOf(forest.text, 'P(Lightning | Storm)', 0, 'P(Lightning | '.length);
    const definition = await lsp.request<Location>('textDocument/definition', {
      textDocument: { uri: forest.uri },
      position: use,
    });
    assert.deepEqual(definition.range.start, positionOf(forest.text, 'Storm'));
    const refs = await lsp.request<Location[]>('textDocument/references', {
      textDocument: { uri: forest.uri },
      position: use,
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      refs.map((r) => r.range.start),
      usesOf(forest.text, 'Storm'),
    );
    const withoutDeclaration = await lsp.request<Location[]>('textDocument/references', {
      textDocument: { uri: forest.uri },
      position: use,
      context: { includeDeclaration: false },
    });
    assert.equal(withoutDeclaration.length, refs.length - 1);
  });

  test('rename a variable, a network, a value and a hypothesis at every use; the result checks clean', async () => {
    const forest = exampleDocument('forest.bayes');
    const variable = await renameAndRecheck(forest, positionOf(forest.text, 'Storm'), 'Tempest');
    assert.equal(variable.edits.length, usesOf(forest.text, 'Storm').length);
    assert.deepEqual(usesOf(variable.renamed, 'Storm'), []);

    const network = await renameAndRecheck(forest, positionOf(forest.text, 'in Forest', 0, 3), 'Woods');
    assert.equal(network.edits.length, usesOf(forest.text, 'Forest').length);

    const cancer = exampleDocument('cancer.bayes');
    await lsp.open(cancer.uri, cancer.text);
    const value = await renameAndRecheck(cancer, positionOf(cancer.text, 'pos, neg'), 'positive');
    assert.equal(value.edits.length, usesOf(cancer.text, 'pos').length);
    const hypothesis = await renameAndRecheck(cancer, positionOf(cancer.text, 'healthy:'), 'well');
    assert.equal(hypothesis.edits.length, usesOf(cancer.text, 'healthy').length);
    assert.match(hypothesis.renamed, /expect map Diagnosis given Test = pos = well/);

    const tennis = exampleDocument('playtennis.bayes');
    await lsp.open(tennis.uri, tennis.text);
    const state = await renameAndRecheck(tennis, positionOf(tennis.text, 'Sunny, Overcast'), 'Bright');
    assert.equal(state.edits.length, usesOf(tennis.text, 'Sunny').length, 'data cells and classify instances too');
  });

  test('a rename that would clash, or of a built-in bool value, is refused with the reason', async () => {
    const forest = exampleDocument('forest.bayes');
    await assert.rejects(
      lsp.request('textDocument/rename', {
        textDocument: { uri: forest.uri },
        position: positionOf(forest.text, 'Storm'),
        newName: 'Thunder',
      }),
      /cannot rename 'Storm' to 'Thunder': a variable 'Thunder' already exists/,
    );
    await assert.rejects(
      lsp.request('textDocument/prepareRename', {
        textDocument: { uri: forest.uri },
        position: positionOf(forest.text, 'true:'),
      }),
      /built-in value of a bool variable/,
    );
    await assert.rejects(
      lsp.request('textDocument/rename', {
        textDocument: { uri: forest.uri },
        position: positionOf(forest.text, 'Storm'),
        newName: '2x',
      }),
      /not a name/,
    );
  });

  test('the outline nests a network and a hypothesis space', async () => {
    const forest = exampleDocument('forest.bayes');
    type Sym = { name: string; kind: number; children?: Sym[] };
    const symbols = await lsp.request<Sym[]>('textDocument/documentSymbol', { textDocument: { uri: forest.uri } });
    assert.equal(symbols[0].name, 'Forest');
    assert.deepEqual(
      symbols[0].children!.slice(0, 6).map((s) => s.name),
      ['Storm', 'BusTourGroup', 'Lightning', 'Thunder', 'Campfire', 'ForestFire'],
    );
    assert.ok(symbols[0].children!.some((s) => s.name === 'P(Campfire | Storm, BusTourGroup)'));
    assert.ok(symbols.some((s) => s.name === 'query mpe Forest given Thunder = true'));
    const cancer = exampleDocument('cancer.bayes');
    const outline = await lsp.request<Sym[]>('textDocument/documentSymbol', { textDocument: { uri: cancer.uri } });
    assert.deepEqual(
      outline.find((s) => s.name === 'Diagnosis')!.children!.map((c) => c.name),
      ['cancer', 'healthy'],
    );
  });

  test('folding ranges cover the network, each multi-line table and the doc comment block', async () => {
    const forest = exampleDocument('forest.bayes');
    const ranges = await lsp.request<{ startLine: number; endLine: number; kind?: string }[]>(
      'textDocument/foldingRange',
      { textDocument: { uri: forest.uri } },
    );
    const network = positionOf(forest.text, 'network Forest').line;
    const close = forest.text.split('\n').indexOf('}');
    assert.ok(ranges.some((r) => r.startLine === network && r.endLine === close - 1));
    const campfire = positionOf(forest.text, 'P(Campfire |').line;
    assert.ok(ranges.some((r) => r.startLine === campfire && r.endLine === campfire + 4));
    assert.ok(ranges.some((r) => r.startLine === 0 && r.kind === 'comment'));
  });
});
