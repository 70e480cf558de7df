/** Every code action applied as an editor would, then the model checked again: it must come out clean. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLsp, fileUri, type LspSession, type PublishedDiagnostics } from '../support/lspClient.js';
import { applyEdits, positionOf, type TextEdit } from '../support/edits.js';

interface CodeAction {
  title: string;
  kind: string;
  isPreferred?: boolean;
  edit: {
    changes?: Record<string, TextEdit[]>;
    documentChanges?: ({ kind: 'create'; uri: string } | { textDocument: { uri: string }; edits: TextEdit[] })[];
  };
}

describe('code actions', () => {
  let lsp: LspSession;
  let dir: string;
  let n = 0;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bayes-actions-'));
    lsp = await startLsp({ rootPath: dir });
  });
  after(async () => {
    await lsp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the model, asks for the actions of its (single) error, applies the one titled, re-checks. */
  async function fix(text: string, title: RegExp, expectedError: RegExp): Promise<string> {
    const uri = fileUri(join(dir, `m${n++}.bayes`));
    const published = await lsp.open(uri, text);
    const errors = published.diagnostics.filter((d) => d.severity === 1);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0].message, expectedError);
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: errors[0].range,
      context: { diagnostics: published.diagnostics },
    });
    const action = actions.find((a) => title.test(a.title));
    assert.ok(action, `no action ${title} among ${actions.map((a) => a.title).join(', ')}`);
    const fixed = applyEdits(text, action.edit.changes![uri]);
    const again = await lsp.open(fileUri(join(dir, `m${n++}.bayes`)), fixed);
    assert.deepEqual(
      again.diagnostics.filter((d) => d.severity === 1),
      [],
      fixed,
    );
    return fixed;
  }

  const cancer = (cancerRow: string) =>
    `variable Test { pos, neg }\nhypotheses Diagnosis {\n  cancer:  0.008\n  healthy: 0.992\n}\nP(Test | Diagnosis) {\n  ${cancerRow}\n  healthy: { pos: 0.03, neg: 0.97 }\n}\n`;

  test('normalise a row that does not sum to 1', async () => {
    const fixed = await fix(cancer('cancer:  { pos: 0.98, neg: 0.04 }'), /^Normalize/, /sum to 1\.02, not 1/);
    assert.match(fixed, /cancer: {2}\{ pos: 0\.960784313725, neg: 0\.0392156862745 \}/);
  });

  test('normalise a distribution without parents', async () => {
    const fixed = await fix(
      'variable A { x, y, z }\nP(A) {\n  x: 0.5\n  y: 0.5\n  z: 0.5\n}\n',
      /^Normalize/,
      /sum to 1\.5, not 1/,
    );
    assert.match(fixed, /x: 0\.333333333333\n {2}y: 0\.333333333333\n {2}z: 0\.333333333333/);
  });

  test('add the missing rows of a CPT, and the missing state of a prior', async () => {
    const text =
      'variable A, B : bool\nvariable C { lo, mid, hi }\nP(A) = 0.3\nP(B) = 0.5\nP(C | A, B) {\n  true, true: { lo: 0.2, mid: 0.3, hi: 0.5 }\n}\n';
    const fixed = await fix(
      text,
      /^Add the missing rows/,
      /no row for A = true, B = false; A = false, B = true; A = false, B = false/,
    );
    assert.match(
      fixed,
      /\n {2}true, false: \{ lo: 1\/3, mid: 1\/3, hi: 1\/3 \}\n {2}false, true: \{ lo: 1\/3, mid: 1\/3, hi: 1\/3 \}\n {2}false, false: \{ lo: 1\/3, mid: 1\/3, hi: 1\/3 \}\n\}/,
    );
    const prior = await fix(
      'variable C { lo, mid, hi }\nP(C) {\n  lo: 0.25\n}\n',
      /^Add the missing rows/,
      /no probability for C = mid, C = hi/,
    );
    assert.match(prior, /lo: 0\.25\n {2}mid: 0\.375\n {2}hi: 0\.375\n/);
  });

  test('declare an undeclared variable with the values the file uses', async () => {
    const fixed = await fix(
      'variable Test { pos, neg }\nobserve Weather = sunny\n',
      /^Declare variable 'Weather'/,
      /variable 'Weather' is not defined/,
    );
    assert.match(fixed, /variable Weather \{ sunny \}\nobserve Weather = sunny/);
  });

  test('replace a misspelt name or value with the suggestion', async () => {
    const name = await fix(
      'variable Test { pos, neg }\nobserve Tesst = pos\n',
      /^Replace with 'Test'/,
      /did you mean 'Test'/,
    );
    assert.match(name, /observe Test = pos/);
    const value = await fix(
      'variable Test { pos, neg }\nobserve Test = poss\n',
      /^Replace with 'pos'/,
      /did you mean 'pos'/,
    );
    assert.match(value, /observe Test = pos/);
  });

  test('replace a misspelt statement keyword: one error, and the fix leaves the model clean', async () => {
    const text =
      'variable Test { pos, neg }\nhypothesis Diagnosis { cancer: 0.008, healthy: 0.992 }\n' +
      'P(Test | Diagnosis) { cancer: [0.98, 0.02], healthy: [0.03, 0.97] }\nquery posterior Diagnosis\n';
    const fixed = await fix(
      text,
      /^Replace with 'hypotheses'/,
      /unknown statement 'hypothesis': did you mean 'hypotheses'\?/,
    );
    assert.match(fixed, /^hypotheses Diagnosis \{/m);
  });

  test('move an inline data table to a CSV file and bring it back inline', async () => {
    const text =
      'variable Play { Yes, No }\ndata Days {\n  Outlook, Play\n  Sunny,   No   // D1\n  "over cast", Yes\n  Rain,    ?\n}\n';
    const path = join(dir, 'days.bayes');
    writeFileSync(path, text);
    const uri = fileUri(path);
    await lsp.open(uri, text);
    const request = (t: string) =>
      lsp.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: positionOf(t, 'Days'), end: positionOf(t, 'Days') },
        context: { diagnostics: [] },
      });
    const move = (await request(text)).find((a) => a.title === 'Move data Days to Days.csv');
    assert.ok(move);
    const [create, csvEdit, modelEdit] = move.edit.documentChanges as [
      { kind: 'create'; uri: string },
      { textDocument: { uri: string }; edits: TextEdit[] },
      { textDocument: { uri: string }; edits: TextEdit[] },
    ];
    assert.equal(create.kind, 'create');
    const csvPath = fileURLToPath(create.uri);
    assert.ok(!existsSync(csvPath));
    writeFileSync(csvPath, applyEdits('', csvEdit.edits));
    assert.equal(readFileSync(csvPath, 'utf8'), 'Outlook,Play\nSunny,No\nover cast,Yes\nRain,\n');
    const moved = applyEdits(text, modelEdit.edits);
    assert.equal(moved, 'variable Play { Yes, No }\ndata Days from "Days.csv"\n');
    writeFileSync(path, moved);
    await lsp.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: moved }],
    });
    const checked = await lsp.nextDiagnostics(uri);
    assert.deepEqual(
      checked.diagnostics.filter((d) => d.severity === 1),
      [],
    );

    const inline = (await request(moved)).find((a) => a.title === 'Inline Days.csv as a data table');
    assert.ok(inline);
    const back = applyEdits(moved, inline.edit.changes![uri]);
    assert.equal(
      back,
      'variable Play { Yes, No }\ndata Days {\n  Outlook, Play\n  Sunny, No\n  "over cast", Yes\n  Rain, ?\n}\n',
    );
    const rechecked: PublishedDiagnostics = await lsp.open(fileUri(join(dir, 'back.bayes')), back);
    assert.deepEqual(
      rechecked.diagnostics.filter((d) => d.severity === 1),
      [],
    );
  });
});
