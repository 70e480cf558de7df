/**
 * Words of a text document for text classification (Mitchell §6.10). The rule is scikit-learn's
 * CountVectorizer default, so numbers can be compared with that peer: lower-case the text, then
 * take every maximal run of two or more word characters, where a word character is a Unicode
 * letter, a Unicode number or '_' (Python's `(?u)\b\w\w+\b`). One-letter words are dropped.
 *
 * Words get integer ids in a WordIndex built once; a corpus is stored as one Int32Array of ids
 * plus document offsets, so training and classification never touch strings again.
 */
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LATIN1_WORD = new Uint8Array(256);
for (let c = 0; c < 256; c++) LATIN1_WORD[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0;

/** True for a code point that can be part of a word. */
export function isWordCodePoint(cp: number): boolean {
  return cp < 256 ? LATIN1_WORD[cp] === 1 : WORD_CHAR.test(String.fromCodePoint(cp));
}

export class WordIndex {
  private readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  /** words[0 .. mapped) are in `ids`; bulk additions defer the Map until a lookup needs it. */
  private mapped = 0;

  id(word: string): number {
    this.catchUp();
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
      this.mapped++;
    }
    return id;
  }

  get size(): number {
    return this.words.length;
  }

  /** Id of a word, or undefined when the index does not know it. */
  find(word: string): number | undefined {
    this.catchUp();
    return this.ids.get(word);
  }

  /**
   * Appends words known to be new (a tokenizer that deduplicated them itself) without hashing
   * them into the Map now; most corpora never look a word up by its text afterwards.
   */
  appendNew(words: readonly string[]): number {
    const first = this.words.length;
    for (const w of words) this.words.push(w);
    return first;
  }

  private catchUp(): void {
    for (; this.mapped < this.words.length; this.mapped++) this.ids.set(this.words[this.mapped]!, this.mapped);
  }
}

/** Calls `emit(start, end)` for each token of an already lower-cased text. */
function scanTokens(text: string, emit: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 256 ? LATIN1_WORD[c] === 0 : !isWordCodePoint(text.codePointAt(i)!)) {
      i++;
      continue;
    }
    const start = i;
    let chars = 0;
    while (i < n) {
      c = text.charCodeAt(i);
      if (c < 256) {
        if (LATIN1_WORD[c] === 0) break;
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        if (!isWordCodePoint(cp)) break;
        i += cp > 0xffff ? 2 : 1;
      }
      chars++;
    }
    if (chars >= 2) emit(start, i);
  }
}

/** The words of one text, in order. */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  scanTokens(lower, (s, e) => out.push(lower.slice(s, e)));
  return out;
}

export interface TokenizedCorpus {
  index: WordIndex;
  /** Word ids of all documents, concatenated. */
  tokens: Int32Array;
  /** Document d is tokens[offsets[d] .. offsets[d+1]). */
  offsets: Int32Array;
}

export function tokenizeDocuments(texts: readonly string[], index = new WordIndex()): TokenizedCorpus {
  let tokens = new Int32Array(1 << 16);
  let length = 0;
  const offsets = new Int32Array(texts.length + 1);
  texts.forEach((text, d) => {
    const lower = text.toLowerCase();
    scanTokens(lower, (s, e) => {
      if (length === tokens.length) {
        const grown = new Int32Array(tokens.length * 2);
        grown.set(tokens);
        tokens = grown;
      }
      tokens[length++] = index.id(lower.slice(s, e));
    });
    offsets[d + 1] = length;
  });
  return { index, tokens: tokens.slice(0, length), offsets };
}
