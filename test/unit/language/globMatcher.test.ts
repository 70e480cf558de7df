/**
 * Corpus globs are matched by an automaton over the path, not a backtracking regular expression:
 * the same answers as the regular expression the globs were compiled to before (the oracle here,
 * on random globs and paths), and on `docs/**a**a…a**c` against a 40-character name — 45 s before —
 * work bounded by |path| × |pattern|.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globMatcher, globWork } from '../../../server/src/language/folderCorpus.js';
import { createRng } from '../../../server/src/engine/random.js';

/** The translation to a regular expression that backtracked: the meaning the matcher keeps. */
function regexOracle(pattern: string): (relative: string) => boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:[^/]+/)*';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const compiled = new RegExp(`^${re}$`);
  return (relative) => compiled.test(relative);
}

test('globs: the same answers as the regular expression on 20,000 random globs and paths', () => {
  const rng = createRng(28);
  const pick = <T>(xs: readonly T[]) => xs[rng.int(xs.length)]!;
  const pieces = ['a', 'b', '.', '/', '*', '**', '**/', '?'];
  let matched = 0;
  for (let i = 0; i < 20_000; i++) {
    const pattern = Array.from({ length: 1 + rng.int(6) }, () => pick(pieces)).join('');
    const path = Array.from({ length: rng.int(9) }, () => pick(['a', 'b', '.', '/'])).join('');
    const want = regexOracle(pattern)(path);
    assert.equal(globMatcher(pattern)(path), want, `${pattern} on '${path}'`);
    if (want) matched++;
  }
  assert.ok(matched > 1000, `enough matches to mean something (${matched})`);
});

test('globs: `**a**a…a**c` (12 wildcards) against a 40-character name in at most |path| × |pattern| steps', () => {
  const pattern = Array.from({ length: 12 }, () => '**').join('a') + 'c';
  const name = 'a'.repeat(40);
  for (const [path, want] of [
    [name, false],
    [name + 'c', true],
    [`x/${name}/y`, false],
  ] as const) {
    globWork.steps = 0;
    assert.equal(globMatcher(pattern)(path), want, path);
    assert.ok(globWork.steps <= path.length * (pattern.length + 1), `${globWork.steps} steps on '${path}'`);
  }
  // 10× the name, at most 12× the work (the regular expression's grew as a power of it)
  const steps = (n: number) => {
    globWork.steps = 0;
    globMatcher(pattern)('a'.repeat(n));
    return globWork.steps;
  };
  assert.ok(steps(400) <= 12 * steps(40));
});
