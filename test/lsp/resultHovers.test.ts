/**
 * Hovers and inlay hints from REAL runs of the textbook examples, over stdio as an editor sees
 * them: each example is opened and run (bayes.server.run), then the exact Markdown is compared
 * with the numbers Mitchell prints — §6.2.1 (cancer: .00784, .02976, .2085), §6.9.1 (PlayTennis:
 * 9/14 · 2/9 · 3/9 · 3/9 · 3/9 = .005291, 5/14 · 3/5 · 1/5 · 4/5 · 3/5 = .0206, P(no|x) = .795)
 * and fig. 6.3 (forest fire, P(Campfire) = .3·.5·.4 + .3·.5·.1 + .7·.5·.8 + .7·.5·.2 = .425).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLsp, exampleDocument, type LspSession } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import { positionOf } from '../support/edits.js';

interface Opened {
  uri: string;
  text: string;
}

describe('result hovers and inlay hints of the textbook examples', () => {
  let lsp: LspSession;
  before(async () => {
    lsp = await startLsp({ rootPath: repoRoot });
  });
  after(async () => {
    await lsp.close();
  });

  /** Opens examples/NAME and waits for its run to finish. */
  const run = async (name: string): Promise<Opened> => {
    const { uri, text } = exampleDocument(name);
    await lsp.open(uri, text);
    const finished = lsp.nextNotification<{ uri: string; state: string }>('bayes/runResult', (p) => p.uri === uri);
    assert.equal(
      await lsp.request('workspace/executeCommand', { command: 'bayes.server.run', arguments: [uri] }),
      'done',
    );
    assert.equal((await finished).state, 'done');
    return { uri, text };
  };
  const hoverAt = async ({ uri, text }: Opened, needle: string, offset = 0): Promise<string> => {
    const shown = await lsp.request<{ contents: { kind: string; value: string } } | null>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(text, needle, 0, offset),
    });
    assert.equal(shown?.contents.kind, 'markdown');
    return shown!.contents.value;
  };
  const hints = async ({ uri, text }: Opened): Promise<string[]> => {
    const all = await lsp.request<{ position: { line: number }; label: string }[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: text.split('\n').length, character: 0 } },
    });
    return all.map((h) => `${text.split('\n')[h.position.line]!.slice(0, 24)} ${h.label}`);
  };
  const block = (...lines: string[]) => '```text\n' + lines.join('\n') + '\n```';

  test('cancer (§6.2.1): the hypothesis, the posterior query with Bayes theorem, an expect line, the inlay hints', async () => {
    const cancer = await run('cancer.bayes');
    assert.equal(
      await hoverAt(cancer, 'cancer:  0.008', 2),
      [
        'hypothesis **cancer** of Diagnosis · prior P(cancer) = 0.008',
        '---',
        '- `query posterior Diagnosis given Test = pos` (line 19): P(cancer) = 0.008 · P(Test = pos | cancer) = 0.98 · P(cancer | Test = pos) = **0.2085**, rank 2 of 2 · ★ h_ML\n' +
          '- `query mdl Diagnosis given Test = pos` (line 21): L(cancer) + L(D | cancer) = 6.966 + 0.02915 = **6.995** bits, rank 2 of 2',
      ].join('\n\n'),
    );
    const posterior = [
      '**posterior** — healthy · 0.7915',
      'Bayes theorem (Mitchell eq. 6.2):',
      block(
        'P(Test = pos | cancer) P(cancer) = 0.98 × 0.008 = 0.00784',
        'P(Test = pos | healthy) P(healthy) = 0.03 × 0.992 = 0.02976',
        'P(cancer | Test = pos) = 0.00784 / (0.00784 + 0.02976) = 0.2085',
        'P(healthy | Test = pos) = 0.02976 / (0.00784 + 0.02976) = 0.7915',
      ),
      'h_MAP = healthy · h_ML = cancer',
    ].join('\n\n');
    assert.equal(await hoverAt(cancer, 'query posterior', 2), posterior);
    assert.equal(
      await hoverAt(cancer, 'expect map Diagnosis', 2),
      ['**expect** — holds: healthy = healthy', '✓ expected = healthy, actual healthy', posterior].join('\n\n'),
    );
    assert.deepEqual(await hints(cancer), [
      'query posterior Diagnosi ⇒ healthy · 0.7915',
      'query map Diagnosis give ⇒ healthy · 0.7915',
      'query mdl Diagnosis give ⇒ h_MDL = healthy · 5.07 bits',
      'expect P(Test = pos, Dia ✓',
      'expect P(Test = pos, Dia ✓',
      'expect P(Diagnosis = can ✓',
      'expect map Diagnosis giv ✓',
      'expect ml Diagnosis give ✓',
      'expect mdl Diagnosis giv ✓',
    ]);
  });

  test('two tests (exercise 6.1): the posterior after each positive test, .008 → .2085 → .8959', async () => {
    const twoTests = await run('two_tests.bayes');
    assert.equal(
      await hoverAt(twoTests, 'query posterior', 2),
      [
        '**posterior** — cancer · 0.8959',
        'Bayes theorem (Mitchell eq. 6.2), D = Test = pos, Test = pos:',
        block(
          'P(D | cancer) P(cancer) = 0.9604 × 0.008 = 0.007683',
          'P(D | healthy) P(healthy) = 0.0009 × 0.992 = 0.0008928',
          'P(cancer | D) = 0.007683 / (0.007683 + 0.0008928) = 0.8959',
          'P(healthy | D) = 0.0008928 / (0.007683 + 0.0008928) = 0.1041',
        ),
        'h_MAP = cancer · h_ML = cancer',
        'Datum by datum (fig. 6.1):',
      ].join('\n\n') +
        '\n\n' +
        [
          '| after | P(cancer\\|…) | P(healthy\\|…) |',
          '| --- | --- | --- |',
          '| (prior) | 0.008 | 0.992 |',
          '| 1. Test = pos | 0.2085 | 0.7915 |',
          '| 2. Test = pos | 0.8959 | 0.1041 |',
        ].join('\n'),
    );
  });

  test("PlayTennis (§6.9.1): the classify line shows Mitchell's products with their counts", async () => {
    const tennis = await run('playtennis.bayes');
    assert.equal(
      await hoverAt(tennis, 'query classify', 2),
      [
        '**classify** — No · 0.7954',
        'v_NB = argmax P(v) Π P(a_i|v) (Mitchell eq. 6.20):',
        block(
          'P(Yes) P(Sunny|Yes) P(Cool|Yes) P(High|Yes) P(Strong|Yes) = 9/14 · 2/9 · 3/9 · 3/9 · 3/9 = 0.005291',
          'P(No) P(Sunny|No) P(Cool|No) P(High|No) P(Strong|No) = 5/14 · 3/5 · 1/5 · 4/5 · 3/5 = 0.02057',
          'P(No | x) = 0.02057 / (0.005291 + 0.02057) = 0.7954',
        ),
        block('Yes  ████░░░░░░░░░░░░░░░░  0.2046', 'No   ████████████████░░░░  0.7954'),
      ].join('\n\n'),
    );
    const shown = await hints(tennis);
    assert.equal(shown[0], 'query classify PlayNB {  ⇒ No · 0.7954');
    assert.deepEqual(shown.slice(1), [
      'expect classify PlayNB { ✓',
      'expect P(Play = Yes, Out ✓',
      'expect P(Play = No, Outl ✓',
      'expect P(Play = No | Out ✓',
    ]);
  });

  test('forest fire (fig. 6.3): a network variable shows its CPT as a table and its marginal as bars', async () => {
    const forest = await run('forest.bayes');
    const shown = await hoverAt(forest, 'P(Campfire | Storm', 3);
    assert.equal(
      shown,
      [
        'variable **Campfire** { true, false } in network Forest',
        '---',
        'Mitchell fig. 6.3: P(Campfire = true | Storm, BusTourGroup).\n\n' +
          [
            '| Storm | BusTourGroup | P(true) | P(false) |',
            '| --- | --- | --- | --- |',
            '| true | true | 0.4 | 0.6 |',
            '| true | false | 0.1 | 0.9 |',
            '| false | true | 0.8 | 0.2 |',
            '| false | false | 0.2 | 0.8 |',
          ].join('\n'),
        '---',
        'P(Campfire) in network Forest, exact:\n\n' +
          block('true   █████████░░░░░░░░░░░  0.425', 'false  ████████████░░░░░░░░  0.575'),
        '---',
        '`expect P(Campfire = true | Storm = true, BusTourGroup = true) in Forest ≈ 0.4 ± 1e-12` — result.table\n\n' +
          block('true   ████████░░░░░░░░░░░░  0.4', 'false  ████████████░░░░░░░░  0.6'),
      ].join('\n\n'),
    );
  });
});
