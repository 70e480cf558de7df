/**
 * Many classes in the language server (issue #28): a run over 2,000 classes pushes a
 * `bayes/runResult` of a few tens of KB (50 classes listed, the rest counted), a class column over
 * the budget on classes ends as an error on the `target:` argument, and another document's hover
 * answers after each. Inputs are generated (test/support/manyClasses.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { manyClassesModel } from '../support/manyClasses.js';
import { SHOWN_CLASSES } from '../../server/src/engine/budget.js';
import type { RunResultMessage } from '../../server/src/protocol/messages.js';

const RUN = 'bayes.server.run';
const OTHER = 'variable Rain : bool\nP(Rain) = 0.2\nquery P(Rain)\n';

test('2,000 classes: the run result lists 50 and stays small; 5,000: an error on target:; hovers answer', async () => {
  const bounded = manyClassesModel(2000, 'query evaluate NB on D\nquery classify NB { Feature: f3 }\n');
  const refused = manyClassesModel(5000);
  const lsp = await startLsp({ rootPath: bounded.dir, settings: { run: { timeoutSeconds: 60 } } });
  const other = fileUri(join(bounded.dir, 'other.bayes'));
  const hover = async () =>
    (
      await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: other },
        position: { line: 0, character: 10 },
      })
    )?.contents.value ?? '';
  try {
    await lsp.open(other, OTHER);
    const uri = fileUri(bounded.model);
    await lsp.open(uri, readFileSync(bounded.model, 'utf8'));
    const pushed = lsp.nextNotification<RunResultMessage>('bayes/runResult', (p) => p.uri === uri);
    const run = lsp.request<string>('workspace/executeCommand', { command: RUN, arguments: [uri] });
    assert.match(await hover(), /variable \*\*Rain\*\*/); // answered while the run is under way
    assert.equal(await run, 'done');
    const message = await pushed;
    assert.ok(JSON.stringify(message).length < 200_000, `${JSON.stringify(message).length} bytes`);
    const results = (message.result?.results ?? []) as { kind: string; classes?: unknown[]; classesLeftOut?: number }[];
    for (const kind of ['evaluation', 'classify']) {
      const entry = results.find((r) => r.kind === kind)!;
      assert.equal(entry.classes?.length, SHOWN_CLASSES, kind);
      assert.equal(entry.classesLeftOut, 2000 - SHOWN_CLASSES, kind);
    }
    assert.match(await hover(), /variable \*\*Rain\*\*/);

    // The refused model lives outside this root: open it as an untitled-like file URI under its own folder.
    const refusedUri = fileUri(refused.model);
    const lsp2 = await startLsp({ rootPath: refused.dir, settings: { run: { timeoutSeconds: 60 } } });
    try {
      await lsp2.open(refusedUri, readFileSync(refused.model, 'utf8'));
      const diagnostics = lsp2.nextNotification<{ uri: string; diagnostics: { message: string; range: unknown }[] }>(
        'textDocument/publishDiagnostics',
        (p) => p.uri === refusedUri && p.diagnostics.some((d) => /classes, over the budget/.test(d.message)),
      );
      await lsp2.request('workspace/executeCommand', { command: RUN, arguments: [refusedUri] });
      const error = (await diagnostics).diagnostics.find((d) => /classes, over the budget/.test(d.message))!;
      assert.match(error.message, /'Label' has 5,000 classes, over the budget of 4,096/);
      assert.deepEqual(error.range, { start: { line: 1, character: 39 }, end: { line: 1, character: 44 } });
    } finally {
      await lsp2.close();
    }
    assert.match(await hover(), /variable \*\*Rain\*\*/);
  } finally {
    await lsp.close();
    rmSync(bounded.dir, { recursive: true, force: true });
    rmSync(refused.dir, { recursive: true, force: true });
  }
});
