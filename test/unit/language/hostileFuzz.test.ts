/**
 * Hostile files, as someone who wants to crash or hang the editor would write them: nesting to
 * 100,000 levels in every form that nests, huge declared sizes, megabyte lines, random garbage,
 * unterminated strings and comments, numbers at the edge of a double. Each goes through the
 * parser, the checker, every editor feature and the incremental parser (and the run when it
 * checks clean), and must give no exception, at least one diagnostic, and finish quickly.
 * At exactly the nesting limit every one of them must work with half the stack already used
 * (a margin for the server's own frames). A few go through the CLI: exit 1, never 70.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResponseError } from 'vscode-languageserver/node';
import { checkText, runText } from '../../../server/src/run/pipeline.js';
import { fullParse, reparse } from '../../../server/src/language/index.js';
import { MAX_NESTING } from '../../../server/src/language/nesting.js';
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
import { inlayHints } from '../../../server/src/features/inlayHints.js';
import { repoRoot } from '../../support/shared.js';

const uri = 'file:///virtual/hostile.bayes';
const env = nodeEnvironment({ workspaceRoot: repoRoot });
/**
 * Time one hostile file may take through everything: a hang detector, not a speed goal (the work
 * itself is counted in test/unit/model/readerWork.test.ts). Quadratic work on these inputs takes
 * minutes; linear work under a shared machine's load has taken up to 9 s.
 */
const BUDGET_MS = 30_000;

/** Files nested `n` deep in each form that nests. */
const nested: Record<string, (n: number) => string> = {
  calls: (n) => `variable A : bool\nclassifier C = ${'f('.repeat(n)}${')'.repeat(n)}\n`,
  callsUnclosed: (n) => `variable A : bool\nclassifier C = ${'f('.repeat(n)}\n`,
  lists: (n) => `variable A : bool\nclassifier C = naive_bayes(D, x: ${'['.repeat(n)}1${']'.repeat(n)})\n`,
  options: (n) => `learn N by em { restarts: ${'['.repeat(n)}${']'.repeat(n)} }\n`,
  tree: (n) =>
    `variable A : bool\nhypotheses H {\n  h: tree { ${'if A = true { '.repeat(n)}P(A = true) = 1/2${' }'.repeat(n)} }\n}\n`,
  elseIf: (n) =>
    `variable A : bool\nhypotheses H {\n  h: tree { if A = true { P(A = true) = 1 } ${'else if A = true { P(A = true) = 1 } '.repeat(
      n,
    )}else { P(A = true) = 0 } }\n}\n`,
  networks: (n) =>
    `${Array.from({ length: n }, (_, i) => `network N${i} {\n`).join('')}variable A : bool\nP(A) = 0.5\n${'}\n'.repeat(n)}`,
  networksUnclosed: (n) => `${Array.from({ length: n }, (_, i) => `network N${i} {\n`).join('')}variable A : bool\n`,
  given: (n) => `variable A : bool\nP(A) = 0.5\nquery P(A | ${'A = ['.repeat(n)}${']'.repeat(n)})\n`,
  probs: (n) => `variable A : bool\nquery ${'P('.repeat(n)}A${')'.repeat(n)}\n`,
  braces: (n) => `${'{'.repeat(n)}${'}'.repeat(n)}\n`,
  mixed: (n) => `variable A : bool\nexpect P(A) = ${'f([{('.repeat(Math.ceil(n / 4))}\n`,
};

/** Every other kind of hostile file: each is bad and must get a diagnostic. */
function others(): [string, string][] {
  const random = createRng(14);
  const garbage = (n: number) => Array.from({ length: n }, () => String.fromCharCode(random.int(0x3000))).join('');
  const states = Array.from({ length: 2000 }, (_, i) => `s${i}`).join(', ');
  const parents = Array.from({ length: 40 }, (_, i) => `B${i}`);
  return [
    ['garbage', garbage(200_000)],
    ['garbage lines', Array.from({ length: 2000 }, () => garbage(80)).join('\n')],
    ['long line of names', `variable A : bool\nobserve ${'A = true, '.repeat(20_000)}Z\n`],
    ['long line of numbers', `variable A : bool\nP(A) = ${'0.5 '.repeat(50_000)}\n`],
    ['unterminated string', `variable A : bool\ndata D from "${'x'.repeat(100_000)}\n`],
    ['unterminated strings', '"'.repeat(100_001)],
    ['unterminated block comment', `variable A : bool\n/* ${'never closed\n'.repeat(20_000)}`],
    ['comments only opening', '/*'.repeat(50_000)],
    ['doc comments', `${'/// doc\n'.repeat(20_000)}query Nothing`],
    [
      '1e308 and beyond',
      'variable A : bool\nP(A) = 1e308\nP(A) = 1e309\nquery P(A) in N using gibbs { samples: 1e999 }\n',
    ],
    [
      '1e12 samples and a wrong expectation',
      'variable A : bool\nP(A) = 0.5\nquery P(A) using likelihood_weighting { samples: 1e12, seed: 1 }\nexpect P(B) ≈ 1e308 ± 1e-320\n',
    ],
    ['huge declared state list', `variable A { ${states} }\nvariable A { ${states} }\nP(A) = 2\n`],
    [
      'huge declared table',
      `variable ${parents.join(', ')} : bool\nvariable C : bool\nP(C | ${parents.join(', ')}) { true: 0.5 }\n`,
    ],
    [
      'huge generated hypotheses',
      `variable ${parents.join(', ')} : bool\nhypotheses H = conjunctions(${parents.join(', ')})\nquery size H\nquery posterior Q\n`,
    ],
    ['many errors', Array.from({ length: 20_000 }, (_, i) => `observe X${i} = y`).join('\n')],
    ['stray closers', `${')]}'.repeat(10_000)}\nvariable A : bool\n`],
    ['nul and surrogates', `variable A\u0000 : bool\n\ud800\udfff\ud83d P(A) = 0.5\n`],
    ['deep recursion in one line of keywords', `${'network '.repeat(50_000)}\n`],
  ];
}

interface Outcome {
  diagnostics: number;
  ms: number;
}

/** Everything the server does with a document: check, incremental re-parse, every feature, and the run. */
async function exercise(text: string, run = false): Promise<Outcome> {
  const started = performance.now();
  const outcome = exerciseSync(text);
  if (run) await runText(text, 'hostile.bayes', env);
  return { ...outcome, ms: performance.now() - started };
}

function exerciseSync(text: string): Outcome {
  const started = performance.now();
  const checked = checkText(text, env);
  const ast = checked.parse.ast;
  const state = fullParse(text);
  const middle = Math.floor(text.length / 2);
  reparse(state, `${text.slice(0, middle)}x${text.slice(middle)}`);
  const doc = { document: { uri, version: 1 }, version: 1, text, parse: checked.parse } as unknown as ParsedDocument;
  documentSymbols(ast, text);
  foldingRanges(ast, text);
  formatting(checked.parse, text);
  semanticTokens(ast, text);
  codeLenses(ast, uri, undefined);
  inlayHints(text, undefined, { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } });
  const diagnostics = checked.diagnostics.map(toLspDiagnostic);
  const lines = text.split('\n');
  for (const line of [0, 1, 2, Math.floor(lines.length / 2), lines.length - 1]) {
    if (line >= lines.length) continue;
    const length = lines[line].length;
    for (const character of [0, 10, Math.floor(length / 2), length]) {
      const position = { line, character: Math.min(character, length) };
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
      // As editors send them: the diagnostics on the line asked about.
      const here = diagnostics.filter((d) => d.range.start.line <= line && d.range.end.line >= line);
      codeActions(
        doc,
        { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: here } },
        { trusted: false },
      );
    }
  }
  return { diagnostics: checked.diagnostics.length, ms: performance.now() - started };
}

/** Runs `f` with roughly `fraction` of the stack already in use (measured by recursing until it overflows). */
function withStackUsed<T>(fraction: number, f: () => T): T {
  let max = 0;
  const probe = (depth: number): void => {
    max = depth;
    probe(depth + 1);
  };
  try {
    probe(0);
  } catch {
    /* the stack's size, in probe frames */
  }
  const target = Math.floor(max * fraction);
  const descend = (depth: number): T => (depth >= target ? f() : descend(depth + 1));
  return descend(0);
}

/** The forms whose every level is a few characters: these go to 100,000 levels; the others to 10,000. */
const cheap = new Set(['calls', 'callsUnclosed', 'lists', 'options', 'given', 'probs', 'braces', 'mixed']);

test('nesting 100,000 levels deep, in every form, gives one diagnostic on the part too deep and no overflow', async () => {
  for (const [form, make] of Object.entries(nested)) {
    for (const depth of [MAX_NESTING + 1, 1000, cheap.has(form) ? 100_000 : 10_000]) {
      const text = make(depth);
      const outcome = await exercise(text);
      assert.ok(outcome.diagnostics > 0, `${form} ${depth}: no diagnostic`);
      assert.ok(outcome.ms < BUDGET_MS, `${form} ${depth}: ${outcome.ms.toFixed(0)} ms`);
      const messages = checkText(text, env).diagnostics.map((d) => d.message);
      if (!['braces', 'mixed'].includes(form) && !form.endsWith('Unclosed')) {
        assert.ok(
          messages.some((m) => m.includes(`deeper than ${MAX_NESTING} levels`)),
          `${form} ${depth}: ${messages.slice(0, 3).join('; ')}`,
        );
      }
    }
  }
});

test('the nesting diagnostic spans the bracket that goes too deep, up to its closer', () => {
  const text = nested.lists(MAX_NESTING + 5);
  const d = checkText(text, env).diagnostics.find((x) => x.code === 'nesting-too-deep')!;
  const line = text.split('\n')[1];
  const first = line.indexOf('[');
  // The list opened at level MAX_NESTING + 1 (counting the call's parenthesis) is the first too deep.
  assert.deepEqual(d.range.start, { line: 1, character: first + MAX_NESTING - 1 });
  assert.equal(line[d.range.end.character - 1], ']');
  assert.equal(line.slice(d.range.start.character, d.range.end.character), `${'['.repeat(6)}1${']'.repeat(6)}`);
  // An `else if` chain counts a level per link.
  const chain = checkText(nested.elseIf(MAX_NESTING + 1), env).diagnostics.filter((x) => x.code === 'nesting-too-deep');
  assert.equal(chain.length, 1);
  const networks = checkText(nested.networks(MAX_NESTING + 3), env).diagnostics.filter(
    (x) => x.code === 'nesting-too-deep',
  );
  assert.deepEqual(
    networks.map((x) => x.range.start.line),
    [MAX_NESTING],
  );
});

test('at exactly the nesting limit, every form works with half the stack already used', async () => {
  for (const [form, make] of Object.entries(nested)) {
    // The deepest file of this form that is not refused: a few levels of each form are its statement's own.
    let depth = MAX_NESTING;
    while (checkText(make(depth), env).diagnostics.some((d) => d.code === 'nesting-too-deep')) depth--;
    assert.ok(depth >= MAX_NESTING - 4, `${form}: refused at ${depth + 1} levels`);
    const text = make(depth);
    const outcome = withStackUsed(0.5, () => exerciseSync(text));
    assert.ok(outcome.ms < BUDGET_MS, `${form}: ${outcome.ms.toFixed(0)} ms`);
    // The run is asynchronous and starts on a fresh stack: it is exercised as the server calls it.
    await exercise(text, true);
  }
});

test('huge sizes, long lines, garbage, unterminated strings and comments: a diagnostic each, quickly', async () => {
  for (const [name, text] of others()) {
    const outcome = await exercise(text, false);
    assert.ok(outcome.diagnostics > 0, `${name}: no diagnostic`);
    assert.ok(outcome.ms < BUDGET_MS, `${name}: ${outcome.ms.toFixed(0)} ms`);
  }
});

test(
  'the CLI reports hostile files with exit code 1 and diagnostics, never an internal error',
  { skip: !existsSync(join(repoRoot, 'dist', 'cli.cjs')) && 'dist/cli.cjs is not built (npm run build)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'bayes-hostile-'));
    const files = [
      ['calls.bayes', nested.calls(100_000)],
      ['tree.bayes', nested.tree(100_000)],
      ['networks.bayes', nested.networks(100_000)],
      ['garbage.bayes', others()[0][1]],
      ['comment.bayes', '/* never closed'],
    ];
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'bin', 'bayes.cjs'), 'check', ...files.map(([name]) => join(dir, name))],
      { encoding: 'utf8' },
    );
    assert.equal(result.status, 1, result.stderr.slice(0, 2000));
    for (const [name] of files)
      assert.match(result.stdout + result.stderr, new RegExp(`${name.replace('.', '\\.')}:\\d+:\\d+: error`), name);
    assert.doesNotMatch(result.stdout + result.stderr, /internal error|Maximum call stack/);
    assert.ok(performance.now() - started < 60_000); // a hang detector, as BUDGET_MS
  },
);
