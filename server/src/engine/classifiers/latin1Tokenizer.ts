/**
 * The tokenizer of tokenizer.ts, specialised for texts stored as Latin-1 bytes (news posts, as
 * read from an archive): the same tokens, but found without building strings. Bytes are
 * lower-cased and classified by one 256-entry table and each word is looked up, straight from the
 * text, in an open-addressing table whose keys are the words' bytes packed into integers (see
 * ByteWordTable); strings are made once per distinct word.
 * This is what makes 20 Newsgroups tokenise several times faster than a Map of substrings.
 */
import { WordIndex, isWordCodePoint, type TokenizedCorpus } from './tokenizer.js';

/** The lower-case byte of a word byte, 0 for a byte that ends words (no word byte lowers to 0). */
const WORD_LOWER = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const lower = String.fromCharCode(c).toLowerCase();
  if (isWordCodePoint(c)) WORD_LOWER[c] = lower.length === 1 && lower.charCodeAt(0) < 256 ? lower.charCodeAt(0) : c;
}

/**
 * Word ids in chunks: growing never copies what is written (doubling one array cost ~10% of the
 * tokenizing time on 20 Newsgroups, in copies and fresh pages), and the ids are copied once
 * anyway, when documents are put in order. Chunks start small and double up to 2^20 ids, so
 * that the scan meets a full chunk within its first few texts (see ByteWordTable).
 */
class IdBuffer {
  private readonly chunks: Int32Array[] = [new Int32Array(1 << 10)];
  /** starts[c] = position of chunks[c][0], counting ids over all chunks. */
  private readonly starts: number[] = [0];
  /** The chunk being written, holding `length` ids. */
  ids = this.chunks[0]!;
  length = 0;

  /** Ids written in all. */
  get total(): number {
    return this.starts[this.starts.length - 1]! + this.length;
  }

  /** Starts a new chunk (the current one is full). */
  next(): void {
    this.starts.push(this.total);
    this.chunks.push((this.ids = new Int32Array(Math.min(this.ids.length * 2, 1 << 20))));
    this.length = 0;
  }

  /** Copies ids [from, to) into target[at, …). */
  copy(from: number, to: number, target: Int32Array, at: number): void {
    let c = this.starts.length - 1;
    while (this.starts[c]! > from) c--;
    for (; from < to; c++) {
      const start = from - this.starts[c]!,
        end = Math.min(to - this.starts[c]!, this.chunks[c]!.length);
      target.set(this.chunks[c]!.subarray(start, end), at);
      at += end - start;
      from += end - start;
    }
  }
}

/**
 * Distinct lower-cased byte strings with dense ids, looked up straight from the text they occur
 * in. While scanning a word its last 8 lower-cased bytes are shifted into two int32s (lo, hi):
 * a word of at most 8 bytes IS its key (lo, hi, length) — no word byte is 0 — so most lookups
 * compare three integers in one 16-byte slot [lo, hi, length, id + 1] and never touch the
 * words' bytes. A longer word's hash also covers its head (the bytes before the last 8), which
 * is confirmed against the pool, where word id spans pool[starts[id], starts[id + 1]) (words
 * are stored in id order).
 *
 * Everything starts small: every way of growing then happens within the first few texts, before
 * the JIT optimizes the scan, instead of deoptimizing it later, once per kind of growth (cold
 * runs on 20 Newsgroups deoptimized the scan four times).
 */
class ByteWordTable {
  pool = new Uint8Array(64);
  size = 0;
  /** starts[id] = pool start of word id; starts[size] = the pool's length. */
  private starts = new Int32Array(16);
  private slots = new Int32Array(4 * 16);

  /** Appends the word ids of one text to `out`. */
  scan(text: Uint8Array, out: IdBuffer): void {
    const lower = WORD_LOWER,
      n = text.length;
    let i = 0,
      length = out.length,
      ids = out.ids;
    while (i < n) {
      let c = lower[text[i++]!]!; // one table load per byte both classifies and lower-cases
      if (c === 0) continue;
      const from = i - 1;
      let lo = c,
        hi = 0;
      while (i < n && (c = lower[text[i]!]!) !== 0) {
        hi = (hi << 8) | (lo >>> 24);
        lo = (lo << 8) | c;
        i++;
      }
      if (i - from < 2) continue;
      if (length === ids.length) {
        out.length = length;
        out.next();
        ids = out.ids;
        length = 0;
      }
      ids[length++] = this.idOf(text, from, i - from, lo, hi);
    }
    out.length = length;
  }

  /** Id of the word text[from, from + w) lower-cased, added if new; (lo, hi) are its last 8 lower-cased bytes. */
  private idOf(text: Uint8Array, from: number, w: number, lo: number, hi: number): number {
    const slots = this.slots,
      mask = (slots.length >> 2) - 1;
    for (let slot = mix(lo, w <= 8 ? hi : hi ^ headHash(text, from, w - 8), w) & mask; ; slot = (slot + 1) & mask) {
      const at = slot << 2,
        entry = slots[at + 3]!;
      if (entry === 0) return this.insert(text, from, w, lo, hi, at);
      if (
        slots[at] === lo &&
        slots[at + 1] === hi &&
        slots[at + 2] === w &&
        (w <= 8 || this.headIs(entry - 1, text, from, w - 8))
      )
        return entry - 1;
    }
  }

  /** True when word id begins with text[from, from + length) lower-cased (the head of a long word: its last 8 bytes are in the key). */
  private headIs(id: number, text: Uint8Array, from: number, length: number): boolean {
    const pool = this.pool,
      start = this.starts[id]!;
    for (let i = 0; i < length; i++) if (pool[start + i] !== WORD_LOWER[text[from + i]!]) return false;
    return true;
  }

  private insert(text: Uint8Array, from: number, length: number, lo: number, hi: number, at: number): number {
    const id = this.size++;
    if (id + 1 === this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    const start = this.starts[id]!;
    if (start + length > this.pool.length) {
      const grown = new Uint8Array(Math.max(this.pool.length * 2, start + length));
      grown.set(this.pool.subarray(0, start));
      this.pool = grown;
    }
    for (let i = 0; i < length; i++) this.pool[start + i] = WORD_LOWER[text[from + i]!]!;
    this.starts[id + 1] = start + length;
    this.slots[at] = lo;
    this.slots[at + 1] = hi;
    this.slots[at + 2] = length;
    this.slots[at + 3] = id + 1;
    if (this.size * 2 > this.slots.length >> 2) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots,
      pool = this.pool,
      starts = this.starts;
    const slots = (this.slots = new Int32Array(old.length * 2));
    const mask = (slots.length >> 2) - 1;
    for (let from = 0; from < old.length; from += 4) {
      const entry = old[from + 3]!;
      if (entry === 0) continue;
      const w = old[from + 2]!;
      const hi = old[from + 1]!;
      // The pool's bytes are already lower-case, which lower-casing leaves as they are.
      let slot = mix(old[from]!, w <= 8 ? hi : hi ^ headHash(pool, starts[entry - 1]!, w - 8), w) & mask;
      while (slots[(slot << 2) + 3] !== 0) slot = (slot + 1) & mask;
      slots.set(old.subarray(from, from + 4), slot << 2);
    }
  }

  /** Every word as a string: the pool is decoded once and sliced (cheaper than one decode per word). */
  words(): string[] {
    const text = decodeLatin1(this.pool.subarray(0, this.starts[this.size]!));
    const out = new Array<string>(this.size);
    for (let id = 0; id < this.size; id++) out[id] = text.slice(this.starts[id]!, this.starts[id + 1]!);
    return out;
  }
}

/**
 * Word bytes as a string. TextDecoder's 'latin1' is windows-1252, which differs from Latin-1 only
 * in 0x80–0x9F: control characters, never word bytes. It decodes natively (a spread of
 * String.fromCharCode arguments cost 30 ms on 20 Newsgroups' vocabulary); a runtime without the
 * encoding gets the chunked fallback.
 */
export function decodeLatin1(bytes: Uint8Array): string {
  try {
    return new TextDecoder('latin1').decode(bytes);
  } catch {
    /* no windows-1252 (Node without ICU) */
  }
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096)
    text += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 4096)));
  return text;
}

/**
 * FNV-1a of the (lower-cased) head of a long word, the bytes before its last 8: mixed into the
 * key's hash, so that long words ending alike do not pile up in one run of slots.
 */
function headHash(text: Uint8Array, from: number, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < from + length; i++) hash = Math.imul(hash ^ WORD_LOWER[text[i]!]!, 16777619);
  return hash;
}

/** A hash of a short word's exact key (murmur3's finalizer: every key bit reaches the low bits the table uses). */
function mix(lo: number, hi: number, length: number): number {
  let h = lo ^ Math.imul(hi ^ length, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Tokenizes documents one at a time as they arrive (say, while an archive is still being
 * decompressed), then hands them over as a corpus in the order the caller wants.
 */
export class Latin1Tokenizer {
  private readonly table = new ByteWordTable();
  private readonly out = new IdBuffer();
  /** ends[a] = end of arrived document a among the ids in `out`. */
  private ends = new Int32Array(1024);
  private count = 0;

  add(text: Uint8Array): void {
    this.table.scan(text, this.out);
    if (this.count === this.ends.length) {
      const grown = new Int32Array(this.count * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.out.total;
  }

  /** The corpus whose document d is arrived document arrival[d] (default: arrival order). */
  finish(arrival?: Int32Array, index = new WordIndex()): TokenizedCorpus {
    const { tokens, offsets } = this.reordered(arrival ?? Int32Array.from({ length: this.count }, (_, a) => a));
    const words = this.table.words();
    if (index.size === 0) {
      index.appendNew(words);
      return { index, tokens, offsets };
    } // ids coincide
    // Local ids → ids of a word index that already holds words.
    const toIndex = Int32Array.from(words, (w) => index.id(w));
    for (let t = 0; t < tokens.length; t++) tokens[t] = toIndex[tokens[t]!]!;
    return { index, tokens, offsets };
  }

  private reordered(arrival: Int32Array): { tokens: Int32Array; offsets: Int32Array } {
    const ends = this.ends;
    const start = (a: number) => (a === 0 ? 0 : ends[a - 1]!);
    const offsets = new Int32Array(arrival.length + 1);
    arrival.forEach((a, d) => {
      if (!(a >= 0 && a < this.count)) throw new RangeError(`document ${d} maps to arrival ${a} of ${this.count}`);
      offsets[d + 1] = offsets[d]! + ends[a]! - start(a);
    });
    const tokens = new Int32Array(offsets[arrival.length]!);
    arrival.forEach((a, d) => this.out.copy(start(a), ends[a]!, tokens, offsets[d]!));
    return { tokens, offsets };
  }
}

export function tokenizeLatin1Documents(documents: readonly Uint8Array[], index = new WordIndex()): TokenizedCorpus {
  const tokenizer = new Latin1Tokenizer();
  for (const d of documents) tokenizer.add(d);
  return tokenizer.finish(undefined, index);
}
