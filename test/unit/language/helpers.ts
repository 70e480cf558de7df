/** Shared by the language tests: parse without errors, ranges in brief, a fake host. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '../../../server/src/engine/random.js';
import { repoRoot } from '../../support/shared.js';
import {
  parseDocument,
  checkDocument,
  type CheckEnvironment,
  type Diagnostic,
  type Range,
  type Statement,
} from '../../../server/src/language/index.js';

export function r(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } };
}

/** The statements of `text`, asserting it parsed without a diagnostic. */
export function parseOk(text: string): Statement[] {
  const { ast, diagnostics } = parseDocument(text);
  assert.deepEqual(diagnostics, [], `unexpected syntax errors:\n${diagnostics.map((d) => d.message).join('\n')}`);
  return ast.statements;
}

export function only<K extends Statement['kind']>(text: string, kind: K): Extract<Statement, { kind: K }> {
  const statements = parseOk(text);
  assert.equal(statements.length, 1);
  assert.equal(statements[0].kind, kind);
  return statements[0] as Extract<Statement, { kind: K }>;
}

/** A host with an in-memory file system under /ws (the workspace) and /data (a data root). */
export function fakeEnv(
  files: Record<string, string[] | { variables: { name: string; states: string[] }[] } | { error: string } | null> = {},
): CheckEnvironment {
  return {
    documentPath: '/ws/model.bayes',
    allowedRoots: ['/ws', '/data'],
    fileExists: (p) => p in files,
    readCsvHeader: (p) => {
      const f = files[p];
      return Array.isArray(f) ? f : f && 'error' in f ? f : { error: 'not a CSV file' };
    },
    networkSymbols: (p) => {
      const f = files[p];
      return f && !Array.isArray(f) ? f : { error: 'not a BIF file' };
    },
  };
}

/** Syntax and semantic diagnostics of `text` checked in `env`. */
export function diagnose(text: string, env: CheckEnvironment = fakeEnv()): Diagnostic[] {
  const { ast, diagnostics } = parseDocument(text);
  return [...diagnostics, ...checkDocument(ast, env)];
}

/** Diagnostics of severity error or warning, as `code@line:char-line:char` for compact asserts. */
export function brief(diagnostics: Diagnostic[], severities = ['error', 'warning']): string[] {
  return diagnostics
    .filter((d) => severities.includes(d.severity))
    .map(
      (d) => `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
    );
}

/** The engine's seeded generator as a function, so a failing property case can be replayed from its seed. */
export function random(seed: number): () => number {
  const rng = createRng(seed);
  return () => rng.next();
}

/**
 * `value` (an AST, diagnostics, …) as plain data for `deepStrictEqual`: data rows with their
 * cells built out (a scanned row keeps them in a private store, see `dataCells.ts`), so rows
 * compare by their cells whether they were scanned, re-scanned or parsed by the grammar.
 */
export function plainAst(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainAst);
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Record<string, unknown>;
  if (node.kind === 'dataRow') return { kind: 'dataRow', range: plainAst(node.range), cells: plainAst(node.cells) };
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, plainAst(v)]));
}

/** Every example (examples/*.bayes) and its text, by name. */
export function examples(): [string, string][] {
  const folder = join(repoRoot, 'examples');
  return readdirSync(folder)
    .filter((f) => f.endsWith('.bayes'))
    .sort()
    .map((name) => [name, readFileSync(join(folder, name), 'utf8')]);
}

/** Every example, and each with every fifth line cut in half (syntax errors, recovery), by name. */
export function exampleTexts(): [string, string][] {
  return examples().flatMap(([name, text]): [string, string][] => {
    const cut = text
      .split('\n')
      .map((line, i) => (i % 5 === 2 ? line.slice(0, line.length >> 1) : line))
      .join('\n');
    return [
      [name, text],
      [`${name} (every fifth line cut)`, cut],
    ];
  });
}

/** Pieces that make or break names, states and numbers: signs, fractions, percents, strings, brackets. */
const damage = [
  '-',
  '/',
  '%',
  '/7',
  '5%',
  '"s"',
  '"',
  '3',
  '.5',
  ',',
  ':',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  'x',
  'do',
  ' ',
  '\n',
];

/** `count` copies of each example with a few random spans deleted, doubled or replaced by a piece of `damage`. */
export function damagedExamples(seed: number, count: number): [string, string][] {
  return examples().flatMap(([name, text]) =>
    damagedCopies(text, seed, count).map(([i, damaged]): [string, string] => [`${name}, ${i}`, damaged]),
  );
}

/** `text`, then `count` copies of it with a few random spans deleted, doubled or replaced by a piece of `damage`. */
export function damagedCopies(text: string, seed: number, count: number): [string, string][] {
  const rng = random(seed);
  const out: [string, string][] = [['intact', text]];
  for (let i = 0; i < count; i++) {
    let damaged = text;
    for (let k = 0; k < 3; k++) {
      const at = Math.floor(rng() * damaged.length);
      const length = 1 + Math.floor(rng() * 6);
      const choice = rng();
      const doubled = choice >= 0.3 && choice < 0.5;
      const insert =
        choice < 0.3 ? '' : doubled ? damaged.slice(at, at + length) : damage[Math.floor(rng() * damage.length)];
      damaged = damaged.slice(0, at) + insert + damaged.slice(doubled ? at : at + length);
    }
    out.push([`damaged ${i}`, damaged]);
  }
  return out;
}
