/**
 * Checking is linear in the file: the cases that were quadratic (a table over 50,000 states with
 * values misspelt, 20,000 variables each used misspelt, 10,000 inline data rows with stray `±`)
 * each parse and check in time linear in their size: ten times the input costs under fifteen
 * times the CPU (3–5× here, part of the small run being fixed cost; the quadratic versions cost
 * ~100×). A ratio of two runs in one process, not a time limit, so a slower or busier machine
 * does not fail it. Suggestions from the index are the nearest names, as the plain scan finds them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkText } from '../../../server/src/run/pipeline.js';
import { editDistance, NameIndex, nearestName, SuggestionBudget } from '../../../server/src/language/suggest.js';
import { createRng } from '../../../server/src/engine/random.js';
import { fakeEnv } from './helpers.js';

/** CPU milliseconds of parse + check (wall time is unreliable on a shared machine). */
function cpuCheck(text: string): { ms: number; messages: string[] } {
  const before = process.cpuUsage();
  const { diagnostics } = checkText(text, fakeEnv());
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, messages: diagnostics.map((d) => d.message) };
}

/** The check of `make(n)` against that of `make(n / 10)`: linear, not quadratic, in n. */
function linearCheck(make: (n: number) => string, n: number): { ms: number; messages: string[] } {
  const small = cpuCheck(make(n / 10));
  const big = cpuCheck(make(n));
  const ratio = big.ms / Math.max(small.ms, 1);
  assert.ok(
    ratio < 15,
    `10× the input took ${ratio.toFixed(1)}× the CPU (${small.ms.toFixed(0)} → ${big.ms.toFixed(0)} ms)`,
  );
  return big;
}

const swap = (s: string, i: number) => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);

test('a table over 50,000 states, and 5,000 misspelt values of them, check in linear time', () => {
  checkText('variable A : bool\nP(A) = 0.5\n', fakeEnv()); // the parser's first use builds its tables
  const make = (n: number) => {
    const states = Array.from({ length: n }, (_, i) => `st${i}`);
    return (
      `variable X { ${states.join(', ')} }\nP(X) {\n${states.map((s) => `  ${s}: ${1 / n}\n`).join('')}}\n` +
      `observe ${states
        .filter((_, i) => i % 10 === 0)
        .map((s) => `X = ${swap(s, 0)}`)
        .join(', ')}\n`
    );
  };
  const { messages } = linearCheck(make, 50_000);
  assert.equal(messages.filter((m) => m.includes('is not a state of')).length, 5000);
  assert.match(
    messages.find((m) => m.includes("'ts0'"))!,
    /did you mean 'st0'\?/,
  );
});

test('20,000 variables, each used misspelt, check in linear time', () => {
  const random = createRng(3);
  const make = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `Var${String(i).padStart(5, '0')}x`);
    return (
      names.map((v) => `variable ${v} { yes, no }\n`).join('') +
      names.map((v) => `observe ${swap(v, 1 + random.int(v.length - 2))} = yes\n`).join('')
    );
  };
  const { messages } = linearCheck(make, 20_000);
  const undefinedNames = messages.filter((m) => m.includes('is not defined'));
  assert.ok(undefinedNames.length > 10_000);
  // The budget runs out at some point; until then each suggestion is the declared name.
  const suggested = undefinedNames.filter((m) => m.includes('did you mean'));
  assert.ok(suggested.length >= 5, `${suggested.length} suggestions`);
  for (const m of suggested) {
    const [, typo, guess] = /variable '([^']+)' is not defined; did you mean '([^']+)'/.exec(m)!;
    assert.equal(editDistance(typo, guess), 1, m);
  }
});

test('10,000 inline data rows with stray ± check in linear time', () => {
  const random = createRng(5);
  const v = () => (random.int(2) ? 'yes' : 'no');
  const make = (n: number) => {
    const rows = Array.from({ length: n }, (_, i) => `  ${v()}, ${v()}, ${v()}${i % 2000 === 7 ? ' ±' : ''}\n`);
    return `variable A, B, C { yes, no }\ndata D {\n  A, B, C\n${rows.join('')}}\n`;
  };
  const { messages } = linearCheck(make, 10_000);
  assert.equal(messages.filter((m) => m.includes("found '±'")).length, 5);
});

test('the name index suggests a nearest name, as the plain scan does', () => {
  const random = createRng(11);
  const word = () => Array.from({ length: 2 + random.int(8) }, () => 'abcdeAB_1'[random.int(9)]).join('');
  for (let trial = 0; trial < 300; trial++) {
    const candidates = Array.from({ length: 1 + random.int(40) }, word);
    const name = random.int(2) ? word() : swap(candidates[0] + 'xy', random.int(candidates[0].length));
    const index = new NameIndex(candidates);
    const fromIndex = index.nearest(name, new SuggestionBudget());
    const fromScan = nearestName(name, candidates);
    assert.equal(fromIndex === undefined, fromScan === undefined, `${name} among ${candidates.join(' ')}`);
    if (fromIndex && fromScan) {
      const distance = (c: string) => (c.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, c));
      assert.equal(distance(fromIndex), distance(fromScan), `${name}: ${fromIndex} vs ${fromScan}`);
    }
  }
  // The bounded distance agrees with the full one up to its bound, and is past the bound beyond it.
  for (let trial = 0; trial < 300; trial++) {
    const a = word(),
      b = word(),
      bound = random.int(4);
    const full = editDistance(a, b);
    const bounded = editDistance(a, b, undefined, bound);
    if (full <= bound) assert.equal(bounded, full, `${a} ${b} ${bound}`);
    else assert.ok(bounded > bound, `${a} ${b} ${bound}: ${bounded}`);
  }
});

test('a spent budget gives no suggestion but the error still comes', () => {
  const index = new NameIndex(['Diagnosis', 'Test']);
  assert.equal(index.nearest('Diagnsois', new SuggestionBudget()), 'Diagnosis');
  assert.equal(index.nearest('Diagnsois', new SuggestionBudget(0)), undefined);
  assert.equal(index.nearest('test', new SuggestionBudget(0)), 'Test'); // a letter-case slip is one look-up
});
