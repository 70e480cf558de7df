/**
 * Bad input never crashes a feature: every example, cut short at many points and with lines
 * deleted (seeded), goes through every feature at many positions. Only a ResponseError (a
 * refused rename) may come out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ResponseError } from 'vscode-languageserver/node';
import { checkText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { toLspDiagnostic } from '../../../server/src/session.js';
import type { ParsedDocument } from '../../../server/src/workspace/documents.js';
import { createRng } from '../../../server/src/engine/random.js';
import { hover } from '../../../server/src/features/hover.js';
import { completion } from '../../../server/src/features/completion.js';
import { signatureHelp } from '../../../server/src/features/signatureHelp.js';
import { definition, references } from '../../../server/src/features/navigation.js';
import { prepareRename } from '../../../server/src/features/rename.js';
import { documentSymbols } from '../../../server/src/features/documentSymbols.js';
import { foldingRanges } from '../../../server/src/features/folding.js';
import { formatting } from '../../../server/src/features/formatting.js';
import { semanticTokens } from '../../../server/src/features/semanticTokens.js';
import { codeActions } from '../../../server/src/features/codeActions.js';
import { codeLenses } from '../../../server/src/features/codeLens.js';
import { repoRoot } from '../../support/shared.js';

const examples = join(repoRoot, 'examples');
const uri = 'file:///virtual/broken.bayes';

function variants(text: string, seed: number): string[] {
  const random = createRng(seed);
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 1; i <= 12; i++) out.push(text.slice(0, Math.floor((text.length * i) / 13)));
  for (let i = 0; i < 12; i++) {
    const drop = random.int(lines.length);
    out.push([...lines.slice(0, drop), ...lines.slice(drop + 1 + random.int(3))].join('\n'));
  }
  return out;
}

function exercise(text: string, pending: Promise<unknown>[]): void {
  const checked = checkText(text, nodeEnvironment({ workspaceRoot: repoRoot }));
  const ast = checked.parse.ast;
  const doc = { document: { uri, version: 1 }, version: 1, text, parse: checked.parse } as unknown as ParsedDocument;
  documentSymbols(ast, text);
  foldingRanges(ast, text);
  formatting(checked.parse, text);
  semanticTokens(ast, text);
  codeLenses(ast, uri, undefined);
  const diagnostics = checked.diagnostics.map(toLspDiagnostic);
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line += 3) {
    for (const character of [0, Math.floor(lines[line].length / 2), lines[line].length]) {
      const position = { line, character };
      hover(ast, position, undefined);
      completion(ast, text, position);
      signatureHelp(text, position);
      definition(ast, uri, position);
      references(ast, uri, position, true);
      try {
        prepareRename(ast, position);
      } catch (e) {
        if (!(e instanceof ResponseError)) throw e;
      }
      pending.push(
        codeActions(
          doc,
          { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics } },
          { trusted: false },
        ),
      );
    }
  }
}

test('every feature survives truncated and damaged versions of every example', async () => {
  let n = 0;
  const pending: Promise<unknown>[] = [];
  for (const [i, file] of readdirSync(examples)
    .filter((f) => f.endsWith('.bayes'))
    .entries()) {
    for (const text of variants(readFileSync(join(examples, file), 'utf8'), i + 1)) {
      assert.doesNotThrow(() => exercise(text, pending), `${file}, variant ${n}`);
      await assert.doesNotReject(Promise.all(pending.splice(0)), `${file}, variant ${n}: code actions`);
      n++;
    }
  }
  assert.ok(n >= 200);
});
