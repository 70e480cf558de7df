import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../../../server/src/engine/classifiers/tokenizer.js';
import { Latin1Tokenizer, decodeLatin1 } from '../../../../server/src/engine/classifiers/latin1Tokenizer.js';
import { isWordCodePoint } from '../../../../server/src/engine/classifiers/tokenizer.js';
import { createRng } from '../../../../server/src/engine/random.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** Each document's words as the byte tokenizer gives them. */
function wordsOf(documents: Uint8Array[]): string[][] {
  const tokenizer = new Latin1Tokenizer();
  for (const d of documents) tokenizer.add(d);
  const corpus = tokenizer.finish();
  return documents.map((_, d) =>
    Array.from(corpus.tokens.subarray(corpus.offsets[d]!, corpus.offsets[d + 1]!), (w) => corpus.index.words[w]!),
  );
}

/**
 * Random documents: words of 1–20 letters from a small alphabet (so words repeat and collide in
 * every way, including long words that share their last 8 bytes and length), in random case,
 * separated by random bytes of all 256 values.
 */
function randomDocuments(seed: number, count: number): Uint8Array[] {
  const rng = createRng(seed);
  const alphabet = 'abAB\u00e9\u00c9\u00df\u00ff_7';
  const documents: Uint8Array[] = [];
  for (let d = 0; d < count; d++) {
    const bytes: number[] = [];
    for (let w = rng.int(60); w > 0; w--) {
      const length = 1 + rng.int(20);
      const prefix = rng.int(3) === 0 ? 'x'.repeat(length) : '';
      for (const c of prefix + Array.from({ length }, () => alphabet[rng.int(alphabet.length)]!).join(''))
        bytes.push(c.charCodeAt(0));
      for (let s = 1 + rng.int(2); s > 0; s--) bytes.push(rng.int(256));
    }
    documents.push(Uint8Array.from(bytes));
  }
  return documents;
}

test('Latin-1 tokenizer equals the string tokenizer on random bytes: every byte value, short and long words, case variants', () => {
  const documents = randomDocuments(11, 300);
  const ours = wordsOf(documents);
  documents.forEach((d, i) => assert.deepEqual(ours[i], tokenize(latin1(d)), `document ${i}`));
  assert.ok(new Set(ours.flat()).size > 1000, 'the sample exercises many distinct words');
});

test('Latin-1 tokenizer: words that share their last bytes and length stay distinct', () => {
  const texts = [
    'abcdefgh xabcdefgh ABCDEFGH yabcdefgh abcdefgh',
    'ab AB aB Ab abc',
    '\u00c0\u00c0 \u00e0\u00e0 \u00ff\u00ff',
  ];
  const documents = texts.map((t) => Uint8Array.from(t, (c) => c.charCodeAt(0)));
  assert.deepEqual(wordsOf(documents), texts.map(tokenize));
  const tokenizer = new Latin1Tokenizer();
  documents.forEach((d) => tokenizer.add(d));
  assert.deepEqual(tokenizer.finish().index.words, ['abcdefgh', 'xabcdefgh', 'yabcdefgh', 'ab', 'abc', 'àà', 'ÿÿ']);
  // Thousands of 8-byte words ending alike (the same last 4 bytes) and of 11-byte words with
  // the same last 8 bytes, twice over: the table fills with look-alikes, so a probe that trusted
  // part of a word would hand out the id of another.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const prefixes = Array.from(
    { length: 26 * 26 * 4 },
    (_, i) => letters[i % 26]! + letters[Math.floor(i / 26) % 26]! + letters[Math.floor(i / 676)]!,
  );
  const text = [...prefixes.map((p) => `${p}xwxyz`), ...prefixes.map((p) => `${p}abcdefgh`)].join(' ');
  const twice = Uint8Array.from(`${text} ${text.toUpperCase()}`, (c) => c.charCodeAt(0));
  const [words] = wordsOf([twice]);
  assert.deepEqual(words, tokenize(latin1(twice)));
});

test('word bytes decode as Latin-1, natively and without TextDecoder', () => {
  const wordBytes = Uint8Array.from(Array.from({ length: 256 }, (_, c) => c).filter(isWordCodePoint));
  const expected = String.fromCharCode(...wordBytes);
  assert.equal(decodeLatin1(wordBytes), expected);
  const native = globalThis.TextDecoder;
  try {
    globalThis.TextDecoder = class {
      constructor() {
        throw new RangeError('no windows-1252');
      }
    } as unknown as typeof TextDecoder;
    assert.equal(decodeLatin1(wordBytes), expected);
    const long = new Uint8Array(10_000).map((_, i) => wordBytes[i % wordBytes.length]!);
    assert.equal(decodeLatin1(long), latin1(long));
  } finally {
    globalThis.TextDecoder = native;
  }
});

test("Latin-1 tokenizer: documents whose ids straddle the id buffer's chunks come out whole, in the order asked for", () => {
  // Three documents of 400,000 words (ids are kept in chunks of 1,024 doubling up to 2^20, so documents straddle chunks): word wk has id k.
  const sequence = (d: number) => Int32Array.from({ length: 400_000 }, (_, t) => (t < 1000 ? t : (t * 7 + d) % 1000));
  const text = (ids: Int32Array) => Uint8Array.from(Buffer.from(Array.from(ids, (k) => `w${k}`).join(' '), 'latin1'));
  const tokenizer = new Latin1Tokenizer();
  [0, 1, 2].forEach((d) => tokenizer.add(text(sequence(d))));
  const corpus = tokenizer.finish(Int32Array.of(2, 0, 1));
  assert.deepEqual(corpus.offsets, Int32Array.of(0, 400_000, 800_000, 1_200_000));
  assert.equal(corpus.index.words[999], 'w999');
  [2, 0, 1].forEach((a, d) =>
    assert.deepEqual(corpus.tokens.subarray(corpus.offsets[d]!, corpus.offsets[d + 1]!), sequence(a), `document ${d}`),
  );
});
