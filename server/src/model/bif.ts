/**
 * BIF (Bayesian Interchange Format) in and out, for the bnlearn repository's networks and
 * JavaBayes files. Reads both header forms — `probability ( X | A, B )` and JavaBayes'
 * `probability ( "X" "A" "B" )` — with tuple rows `(a, b) p, q;`, flat `table` lists (child
 * state slowest, as the format defines them), `default` rows, quoted or bare state names that are
 * not identifiers (`0-3_days`, `12+`), commas or spaces between values, and `-1` for unknown
 * entries (read as NaN, to be learned). Pure text in, text out: no file I/O here.
 */
import type { BayesianNetwork, Cpt, DiscreteVariable } from '../engine/network.js';
import { cardinality, normalizeCptRows, rowAssignment, rowCount } from '../engine/network.js';
import { DEFAULT_BUDGETS, requireWithin, type Budgets } from '../engine/budget.js';
import { PeekingLexer } from './peekingLexer.js';
import {
  decimalNumber,
  NetworkSyntaxError,
  readerWork,
  requireDeclarationsWithin,
  requireRowsSumToOne,
  UnwritableNetworkError,
} from './networkText.js';

export interface BifError {
  message: string;
  /** 1-based line of the offending token. */
  line: number;
}

export type BifReadResult = { network: BayesianNetwork } | { error: BifError };

const enum Kind {
  Word,
  String,
  Punct,
  End,
}
interface Token {
  kind: Kind;
  text: string;
  line: number;
}

const PUNCT = new Set(['{', '}', '(', ')', '[', ']', ';', ',', '|']);
/** Character classes by code unit, so the scanner never builds one-character strings. */
const SPACE = 1,
  PUNCTUATION = 2,
  QUOTE = 3;
const CLASS = new Uint8Array(128);
for (let c = 0; c <= 32; c++) CLASS[c] = SPACE;
for (const p of PUNCT) CLASS[p.charCodeAt(0)] = PUNCTUATION;
CLASS[34] = QUOTE;
const classOf = (code: number) => (code < 128 ? CLASS[code]! : 0);

class Lexer extends PeekingLexer<Token> {
  private skipSpaceAndComments(): void {
    const s = this.src;
    for (;;) {
      let code = s.charCodeAt(this.pos);
      while (code <= 32) {
        if (code === 10) this.line++;
        code = s.charCodeAt(++this.pos);
      }
      if (code !== 47 /* / */) return;
      const second = s.charCodeAt(this.pos + 1);
      if (second === 47) {
        const nl = s.indexOf('\n', this.pos);
        this.pos = nl < 0 ? s.length : nl;
        continue;
      }
      if (second !== 42 /* * */) return;
      const end = s.indexOf('*/', this.pos + 2);
      const stop = end < 0 ? s.length : end + 2;
      for (let i = this.pos; i < stop; i++) if (s.charCodeAt(i) === 10) this.line++;
      this.pos = stop;
    }
  }

  protected scan(): Token {
    this.skipSpaceAndComments();
    readerWork.steps++;
    const s = this.src;
    if (this.pos >= s.length) return { kind: Kind.End, text: '', line: this.line };
    const kind = classOf(s.charCodeAt(this.pos));
    if (kind === PUNCTUATION) return { kind: Kind.Punct, text: s[this.pos++]!, line: this.line };
    if (kind === QUOTE) {
      const end = s.indexOf('"', this.pos + 1);
      const stop = end < 0 ? s.length : end;
      const text = s.slice(this.pos + 1, stop);
      this.pos = stop + 1;
      return { kind: Kind.String, text, line: this.line };
    }
    const start = this.pos;
    while (this.pos < s.length && classOf(s.charCodeAt(this.pos)) === 0) this.pos++;
    return { kind: Kind.Word, text: s.slice(start, this.pos), line: this.line };
  }

  /**
   * Skips the tokens up to and including the first `}` without building them (a probability block's
   * body is read later, once all variables are known); false when the text ends first.
   */
  skipPastCloseBrace(): boolean {
    if (this.hasPeeked) throw new Error('skipPastCloseBrace after peek');
    const s = this.src;
    for (;;) {
      this.skipSpaceAndComments();
      if (this.pos >= s.length) return false;
      const code = s.charCodeAt(this.pos);
      const kind = classOf(code);
      if (kind === PUNCTUATION) {
        this.pos++;
        if (code === 125 /* } */) return true;
      } else if (kind === QUOTE) {
        // as scan() does: a string's newlines are not counted
        const end = s.indexOf('"', this.pos + 1);
        this.pos = end < 0 ? s.length : end + 1;
      } else while (this.pos < s.length && classOf(s.charCodeAt(this.pos)) === 0) this.pos++;
    }
  }

  /**
   * Reads the statements from here that are rows written plainly — `( a, b, … ) p, q, …;` with each
   * parent's state a bare word or a quoted string and one comma between them — into `table`, and
   * returns at the first other statement (or the block's end), leaving it to the token path, which
   * reads it and reports what is wrong as it always did. A row's names are not made into tokens or
   * strings: bnlearn's rows count up like an odometer, so each name is compared in place with the state
   * its parent had in the previous row (`last`), the next one and the first, and looked up by name
   * only when none of them is it. One loop for the whole block, because a file is mostly such rows and
   * the reader runs cold, once per process: every call per row is paid in the interpreter.
   */
  plainRows(parents: readonly RowParent[], last: Int32Array, table: Float64Array, filled: Uint8Array): void {
    if (this.hasPeeked) return; // a token the token path has peeked (a `property` statement's end) comes first
    const s = this.src;
    const n = parents.length;
    const k = table.length / filled.length;
    for (;;) {
      this.skipSpaceAndComments();
      const open = this.pos,
        openLine = this.line;
      if (s.charCodeAt(open) !== 40 /* ( */) return;
      let i = open + 1,
        line = openLine,
        r = 0,
        plain = true;
      for (let p = 0; p <= n; p++) {
        let code = s.charCodeAt(i);
        while (code <= 32) {
          if (code === 10) line++;
          code = s.charCodeAt(++i);
        }
        if (p === n) {
          plain = code === 41; /* ) */
          i++;
          break;
        }
        const parent = parents[p]!;
        const states = parent.states;
        const quoted = code === 34; /* " */
        // punctuation, the end of the text or a comment: not a name
        if (!quoted && (code >= 128 ? false : CLASS[code] !== 0)) {
          plain = false;
          break;
        }
        if (code === 47 /* / */ && (s.charCodeAt(i + 1) === 47 || s.charCodeAt(i + 1) === 42)) {
          plain = false;
          break;
        }
        const at = quoted ? i + 1 : i;
        let state = last[p]!;
        if (!parent.isAt(s, at, quoted, state) && !parent.isAt(s, at, quoted, ++state)) {
          state = parent.isAt(s, at, quoted, 0) ? 0 : parent.lookupAt(s, at, quoted);
          if (state < 0) {
            plain = false;
            break;
          }
        }
        last[p] = state;
        r = r * states.length + state;
        i = at + states[state]!.length + (quoted ? 1 : 0);
        code = s.charCodeAt(i);
        while (code <= 32) {
          if (code === 10) line++;
          code = s.charCodeAt(++i);
        }
        if (p < n - 1 ? code !== 44 /* , */ : code !== 41 /* ) */) {
          plain = false;
          break;
        }
        if (p < n - 1) i++;
      }
      if (!plain) {
        this.pos = open;
        this.line = openLine;
        return;
      }
      readerWork.steps += n + 1;
      this.pos = i;
      this.line = line;
      const found = this.values(table, r * k, k, 1, 1);
      if (found !== k) throw new BifSyntaxError(`expected ${k} probabilities, found ${found}`, openLine);
      filled[r] = 1; // an explicit row wins over a `default` given before it
      // the statement's `;` (or the block's `}`, read by the token path)
      if (s.charCodeAt(this.pos) === 59) this.pos++;
    }
  }

  /**
   * Reads a list of probabilities up to, not including, the `;` or `}` that ends the statement,
   * commas optional. Value n goes to out[base + (n % inner) * stride + ⌊n / inner⌋] (a flat table is
   * transposed as it is read) and -1 (any negative) is stored as NaN; returns how many were read.
   * Numerals are scanned straight from the source, without a token or a substring each: diabetes.bif
   * has 5.5 MB of them. A numeral whose digits, the point dropped, are an integer m < 2^53 and whose
   * power of ten is within 10^±22 is m · 10^e or m / 10^-e with both operands exact doubles (Clinger's
   * fast path), so the one rounding of that operation is the correctly rounded value Number() gives;
   * anything else (more digits, larger exponents, Infinity, junk) goes through Number() on the word
   * (hex, binary and octal are refused).
   */
  values(out: Float64Array, base: number, expected: number, inner: number, stride: number): number {
    if (this.hasPeeked) throw new Error('values after peek');
    // pos and line live in locals while the loop runs (the cold interpreter pays for each property
    // access): every call and every exit writes them back first.
    const s = this.src;
    const len = s.length;
    let i = this.pos,
      line = this.line,
      n = 0,
      r = 0,
      x = 0;
    for (;;) {
      let code = s.charCodeAt(i);
      // white space and commas (commas are optional, and several are one) before the next numeral
      while (code <= 32 || code === 44 /* , */) {
        if (code === 10) line++;
        code = s.charCodeAt(++i);
      }
      if (code === 47 /* / */) {
        const next = s.charCodeAt(i + 1);
        if (next === 47 || next === 42) {
          this.pos = i;
          this.line = line;
          this.skipSpaceAndComments();
          i = this.pos;
          line = this.line;
          continue;
        }
      }
      const start = i;
      if (start >= len || code === 59 /* ; */ || code === 125 /* } */) break;
      if (code < 128 && CLASS[code] !== 0) {
        this.pos = i;
        this.line = line;
        const t = this.scan(); // a string or punctuation: not a number
        throw new BifSyntaxError(`expected a probability, found '${t.text}'`, t.line);
      }
      const negative = code === 45; /* - */
      if (negative || code === 43 /* + */) code = s.charCodeAt(++i);
      // the fewest operations per digit (the loop runs interpreted at first): no counts inside it
      let m = 0;
      const integer = i;
      while (code >= 48 && code <= 57) {
        m = m * 10 + (code - 48);
        code = s.charCodeAt(++i);
      }
      let digits = i - integer,
        scale = 0;
      if (code === 46 /* . */) {
        const fraction = ++i;
        code = s.charCodeAt(i);
        while (code >= 48 && code <= 57) {
          m = m * 10 + (code - 48);
          code = s.charCodeAt(++i);
        }
        scale = fraction - i;
        digits -= scale;
      }
      // m grows with every digit, so m < 2^53 means every step of it was exact
      let exact = digits > 0 && m <= MAX_EXACT;
      if (exact && (code === 101 || code === 69) /* e E */) {
        code = s.charCodeAt(++i);
        const negativeExponent = code === 45;
        if (negativeExponent || code === 43) code = s.charCodeAt(++i);
        let e = 0;
        exact = code >= 48 && code <= 57;
        while (code >= 48 && code <= 57) {
          if (e < 1e4) e = e * 10 + (code - 48); // past 10^4 it is out of the fast range anyway
          code = s.charCodeAt(++i);
        }
        scale += negativeExponent ? -e : e;
      }
      let v: number;
      // the numeral ends at white space, punctuation, a quote or the end of the text (a word's end)
      if (exact && scale >= -22 && scale <= 22 && (i >= len || (code < 128 && CLASS[code] !== 0))) {
        v = scale < 0 ? m / POW10[-scale]! : m * POW10[scale]!;
        if (negative) v = -v;
      } else {
        while (i < len && classOf(s.charCodeAt(i)) === 0) i++;
        v = decimalNumber(s.slice(start, i));
        if (Number.isNaN(v)) throw new BifSyntaxError(`expected a probability, found '${s.slice(start, i)}'`, line);
      }
      if (n >= expected) throw new BifSyntaxError(`too many probabilities: expected ${expected}`, line);
      out[base + r * stride + x] = v < 0 ? NaN : v; // JavaBayes writes -1 for an unknown entry
      n++;
      if (++r === inner) {
        r = 0;
        x++;
      }
    }
    this.pos = i;
    this.line = line;
    readerWork.steps += n;
    return n;
  }
}

/** The largest integer below which every integer is a double (2^53 − 1). */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** 10^0 … 10^22: the powers of ten that are exact doubles (5^22 < 2^53). */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** A parent of a table's rows: its states, and how a row's name is matched against them in place. */
class RowParent {
  /** Per state: 1 when it can be written as a bare word (no white space, punctuation or quote). */
  private readonly bare: Uint8Array;
  private index: Map<string, number> | undefined;

  constructor(readonly states: readonly string[]) {
    this.bare = Uint8Array.from(states, (name) => {
      if (name.length === 0) return 0;
      for (let c = 0; c < name.length; c++) if (classOf(name.charCodeAt(c)) !== 0) return 0;
      return 1;
    });
  }

  /**
   * Whether the token at `at` is state `state`'s name: a quoted one (`at` past the quote) closes right
   * after it; a bare one ends there (what follows is white space, punctuation, a quote or the end).
   */
  isAt(s: string, at: number, quoted: boolean, state: number): boolean {
    const name = this.states[state];
    if (name === undefined || !s.startsWith(name, at)) return false;
    const after = s.charCodeAt(at + name.length);
    if (quoted) return after === 34;
    return this.bare[state] === 1 && (Number.isNaN(after) || classOf(after) !== 0);
  }

  /** The state named by the token at `at` (as isAt reads it), or -1. */
  lookupAt(s: string, at: number, quoted: boolean): number {
    let end = at;
    if (quoted) end = s.indexOf('"', at);
    else while (end < s.length && classOf(s.charCodeAt(end)) === 0) end++;
    return end < 0 ? -1 : this.lookup(s.slice(at, end));
  }

  /** The state called `name`, or -1 (the map is built at the first name the guesses miss). */
  lookup(name: string): number {
    this.index ??= new Map(this.states.map((s, j) => [s, j]));
    return this.index.get(name) ?? -1;
  }
}

class BifSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Reads a BIF file; a table larger than the budget is refused (with its line) before it is allocated. */
export function readBif(text: string, budgets: Budgets = DEFAULT_BUDGETS): BifReadResult {
  try {
    return { network: new BifParser(text, budgets).parse() };
  } catch (e) {
    if (e instanceof BifSyntaxError) return { error: { message: e.message, line: e.line } };
    if (e instanceof NetworkSyntaxError) return { error: { message: e.message, line: e.line } };
    if (e instanceof RangeError) {
      return { error: { message: `the file is too large or too deeply nested: ${e.message}`, line: 1 } };
    }
    throw e;
  }
}

/** A probability block: its header, where its body starts, and its CPT when that could be read at once. */
interface Block {
  names: string[];
  line: number;
  bodyPos: number;
  bodyLine: number;
  cpt: Cpt | undefined;
}

class BifParser {
  private readonly lex: Lexer;
  private name = 'network';
  private readonly variables: DiscreteVariable[] = [];
  private readonly index = new Map<string, number>();
  /** Each variable as a parent of rows, built when a row first names it (its states' lookup is then O(1)). */
  private readonly rowParents = new Map<number, RowParent>();
  private readonly blocks: Block[] = [];
  /** A block failed when read at once: the read will fail, so the blocks after it are only skipped. */
  private failed = false;
  /** Entries of every table allocated so far: the network's total is held to its budget too. */
  private allocated = 0;
  /** The network being read: cpt() records each table here (rowCount and rowAssignment read it). */
  private readonly net: BayesianNetwork = { name: 'network', variables: this.variables, cpts: [] };

  constructor(
    text: string,
    private readonly budgets: Budgets,
  ) {
    this.lex = new Lexer(text);
  }

  parse(): BayesianNetwork {
    for (let t = this.lex.peek(); t.kind !== Kind.End; t = this.lex.peek()) {
      const word = this.lex.next();
      if (word.text === 'network') this.network();
      else if (word.text === 'variable') this.variable();
      else if (word.text === 'probability') this.probability();
      else throw new BifSyntaxError(`expected 'network', 'variable' or 'probability', found '${word.text}'`, word.line);
    }
    const net = this.net;
    net.name = this.name;
    const cpts: (Cpt | undefined)[] = new Array(this.variables.length);
    for (const block of this.blocks) {
      const cpt = block.cpt ?? this.cpt(block);
      if (cpts[cpt.child]) throw new BifSyntaxError(`a second probability block for '${block.names[0]}'`, block.line);
      cpts[cpt.child] = cpt;
    }
    const missing = cpts.findIndex((c) => !c);
    if (missing >= 0 || cpts.length < this.variables.length) {
      const v = this.variables[missing >= 0 ? missing : cpts.length]!;
      throw new BifSyntaxError(`variable '${v.name}' has no probability block`, 1);
    }
    net.cpts = cpts as Cpt[];
    return net;
  }

  private expect(text: string): Token {
    const t = this.lex.next();
    if (t.text !== text || t.kind === Kind.String)
      throw new BifSyntaxError(`expected '${text}', found '${t.text || 'end of file'}'`, t.line);
    return t;
  }

  private name_(): Token {
    const t = this.lex.next();
    if (t.kind !== Kind.Word && t.kind !== Kind.String)
      throw new BifSyntaxError(`expected a name, found '${t.text || 'end of file'}'`, t.line);
    return t;
  }

  /** Skips a `{ … }` block (network and variable properties we do not use). */
  private skipBlock(): void {
    this.expect('{');
    for (let depth = 1; depth > 0;) {
      const t = this.lex.next();
      if (t.kind === Kind.End) throw new BifSyntaxError("unclosed '{'", t.line);
      if (t.kind === Kind.Punct && t.text === '{') depth++;
      if (t.kind === Kind.Punct && t.text === '}') depth--;
    }
  }

  private network(): void {
    this.name = this.name_().text;
    this.skipBlock();
  }

  private variable(): void {
    const nameTok = this.name_();
    if (this.index.has(nameTok.text))
      throw new BifSyntaxError(`variable '${nameTok.text}' is declared twice`, nameTok.line);
    requireDeclarationsWithin('the network', this.variables.length + 1, 'variables', nameTok.line, this.budgets);
    this.expect('{');
    let states: string[] | undefined;
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === '}'); t = this.lex.next()) {
      if (t.kind === Kind.End) throw new BifSyntaxError(`unclosed variable '${nameTok.text}'`, t.line);
      if (t.text === 'type') states = this.discreteType(nameTok.text);
      else this.skipStatement();
    }
    if (!states) throw new BifSyntaxError(`variable '${nameTok.text}' has no 'type discrete' line`, nameTok.line);
    this.index.set(nameTok.text, this.variables.length);
    this.variables.push({ name: nameTok.text, states });
  }

  private skipStatement(): void {
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === ';'); t = this.lex.next()) {
      if (t.kind === Kind.End) throw new BifSyntaxError("expected ';'", t.line);
    }
  }

  private discreteType(variable: string): string[] {
    const kind = this.lex.next();
    if (kind.text !== 'discrete')
      throw new BifSyntaxError(
        `variable '${variable}': only discrete variables are supported, found '${kind.text}'`,
        kind.line,
      );
    let declared: number | undefined;
    if (this.lex.peek().text === '[') {
      this.lex.next();
      const n = this.lex.next();
      declared = Number(n.text);
      this.expect(']');
    }
    this.expect('{');
    const states: string[] = [];
    const seen = new Set<string>();
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === '}'); t = this.lex.next()) {
      if (t.kind === Kind.End) throw new BifSyntaxError(`unclosed state list of '${variable}'`, t.line);
      if (t.kind === Kind.Punct && t.text === ',') continue;
      if (seen.size === seen.add(t.text).size)
        throw new BifSyntaxError(`variable '${variable}' lists state '${t.text}' twice`, t.line);
      requireDeclarationsWithin(`variable '${variable}'`, states.length + 1, 'states', t.line, this.budgets);
      states.push(t.text);
    }
    const semi = this.lex.peek();
    if (semi.text === ';') this.lex.next();
    if (declared !== undefined && declared !== states.length) {
      throw new BifSyntaxError(
        `variable '${variable}' declares ${declared} states but lists ${states.length}`,
        semi.line,
      );
    }
    if (states.length === 0) throw new BifSyntaxError(`variable '${variable}' has no states`, semi.line);
    return states;
  }

  /**
   * Reads the header and, when its variables are all declared already (as they are in the files we know),
   * the body too, straight into the CPT: keeping a body to read later costs a second scan of it.
   * A body that cannot be read now (a variable declared further on, or any error) is skipped and read
   * again after the last variable: its errors are then reported in the order they always were, after
   * the file's syntax errors and those of the blocks before it.
   */
  private probability(): void {
    const open = this.expect('(');
    const names: string[] = [];
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === ')'); t = this.lex.next()) {
      if (t.kind === Kind.End) throw new BifSyntaxError("unclosed '(' in probability header", open.line);
      if (t.kind === Kind.Punct && (t.text === ',' || t.text === '|')) continue;
      names.push(t.text);
    }
    if (names.length === 0) throw new BifSyntaxError('probability block names no variable', open.line);
    const brace = this.expect('{');
    const block: Block = { names, line: open.line, bodyPos: this.lex.position, bodyLine: brace.line, cpt: undefined };
    if (!this.failed && names.every((n) => this.index.has(n))) {
      const allocated = this.allocated;
      try {
        block.cpt = this.cpt(block);
      } catch (e) {
        if (!(e instanceof BifSyntaxError)) throw e;
        this.failed = true;
        this.allocated = allocated; // its table is counted again when the block is read again
        this.lex.seek(block.bodyPos, block.bodyLine);
      }
    }
    if (!block.cpt && !this.lex.skipPastCloseBrace())
      throw new BifSyntaxError(`unclosed probability block for '${names[0]}'`, open.line);
    this.blocks.push(block);
  }

  private resolve(name: string, line: number): number {
    const i = this.index.get(name);
    if (i === undefined) throw new BifSyntaxError(`unknown variable '${name}'`, line);
    return i;
  }

  /** Reads a block's body from its start to its closing `}` into a new CPT. */
  private cpt(block: Block): Cpt {
    const net = this.net;
    const [child, ...parents] = block.names.map((n) => this.resolve(n, block.line));
    const k = cardinality(net, child!);
    const cpt: Cpt = { child: child!, parents, table: new Float64Array(0) };
    net.cpts[child!] = cpt; // rowCount reads it
    const rows = rowCount(net, child!);
    try {
      requireWithin(`the table of '${block.names[0]}'`, rows * k, this.budgets.maxTableEntries);
      requireWithin('the network (all its tables)', this.allocated + rows * k, this.budgets.maxTotalEntries);
    } catch (e) {
      throw new BifSyntaxError((e as Error).message, block.line);
    }
    this.allocated += rows * k;
    const table = new Float64Array(rows * k).fill(NaN);
    cpt.table = table;
    const filled = new Uint8Array(rows);
    // The body's statements are read as a stream (no token list per block): the numbers go straight
    // into the table, and the checks and messages are those of the statements in order, as before.
    const lex = this.lex;
    lex.seek(block.bodyPos, block.bodyLine);
    const rowParents = parents.map((p) => this.rowParent(p));
    const last = new Int32Array(parents.length);
    for (;;) {
      // the common statements, rows written plainly, are read without tokens; the token path reads the rest
      lex.plainRows(rowParents, last, table, filled);
      const head = lex.next();
      if (head.kind === Kind.Punct && head.text === '}') break;
      if (head.kind === Kind.End)
        throw new BifSyntaxError(`unclosed probability block for '${block.names[0]}'`, block.line);
      if (head.kind === Kind.Punct && head.text === ';') continue; // an empty statement
      if (head.kind === Kind.Word && head.text === 'table') {
        // BIF's flat table lists the child's state slowest: all rows for state 0, then state 1, …
        this.count(lex.values(table, 0, rows * k, rows, k), rows * k, head.line);
        filled.fill(1);
      } else if (head.kind === Kind.Word && head.text === 'default') {
        const values = new Float64Array(k);
        this.count(lex.values(values, 0, k, 1, 1), k, head.line);
        for (let r = 0; r < rows; r++)
          if (!filled[r]) {
            table.set(values, r * k);
            filled[r] = 2;
          }
      } else if (head.kind === Kind.Punct && head.text === '(') {
        const assignment: Token[] = [];
        for (let t = lex.next(); !(t.kind === Kind.Punct && t.text === ')'); t = lex.next()) {
          if (t.kind === Kind.End || (t.kind === Kind.Punct && (t.text === ';' || t.text === '}')))
            throw new BifSyntaxError("unclosed '(' in a table row", head.line);
          if (!(t.kind === Kind.Punct && t.text === ',')) assignment.push(t);
        }
        const r = this.rowOf(net, parents, assignment, head.line);
        this.count(lex.values(table, r * k, k, 1, 1), k, head.line);
        filled[r] = 1; // an explicit row wins over a `default` given before it
      } else if (head.kind === Kind.Word && head.text === 'property') {
        this.skipToStatementEnd();
      } else {
        throw new BifSyntaxError(
          `unexpected '${head.text}' in the probability block of '${block.names[0]}'`,
          head.line,
        );
      }
    }
    const missing = filled.indexOf(0);
    if (missing >= 0) {
      const states = rowAssignment(net, child!, missing).map((s, i) => net.variables[parents[i]!]!.states[s]);
      throw new BifSyntaxError(
        `probability block for '${block.names[0]}' has no row for (${states.join(', ')})`,
        block.line,
      );
    }
    requireRowsSumToOne(table, k, `the probability block for '${block.names[0]}'`, block.line, (row) =>
      rowAssignment(net, child!, row).map((s, i) => net.variables[parents[i]!]!.states[s]!),
    );
    normalizeCptRows(table, k); // the file's rows are rounded to 6–7 digits
    return cpt;
  }

  private rowOf(net: BayesianNetwork, parents: number[], assignment: Token[], line: number): number {
    if (assignment.length !== parents.length) {
      throw new BifSyntaxError(`row gives ${assignment.length} parent states, expected ${parents.length}`, line);
    }
    let r = 0;
    parents.forEach((p, i) => {
      const parent = this.rowParent(p);
      readerWork.steps++;
      const s = parent.lookup(assignment[i]!.text);
      if (s < 0)
        throw new BifSyntaxError(`'${assignment[i]!.text}' is not a state of '${net.variables[p]!.name}'`, line);
      r = r * parent.states.length + s;
    });
    return r;
  }

  /** Variable `v` as a parent of rows (built once: its name map is shared by every table it is a parent in). */
  private rowParent(v: number): RowParent {
    let parent = this.rowParents.get(v);
    if (!parent) this.rowParents.set(v, (parent = new RowParent(this.variables[v]!.states)));
    return parent;
  }

  private count(found: number, expected: number, line: number): void {
    if (found !== expected) throw new BifSyntaxError(`expected ${expected} probabilities, found ${found}`, line);
  }

  /** Skips to the `;` or `}` that ends a statement in a probability block, leaving it to be read. */
  private skipToStatementEnd(): void {
    for (let t = this.lex.peek(); !(t.kind === Kind.Punct && (t.text === ';' || t.text === '}')); t = this.lex.peek()) {
      if (t.kind === Kind.End) return;
      this.lex.next();
    }
  }
}

/** Writes a network as BIF in the bnlearn style (tuple rows), quoting names that need it. */
export function writeBif(net: BayesianNetwork): string {
  // BIF strings have no escapes (the reader takes everything up to the next `"`), so a name is
  // written between quotes as it is: JSON.stringify's \" and \\ read back as other names.
  const q = (s: string) => {
    if (/^[A-Za-z0-9_.+<>=-]+$/.test(s) && !/^[0-9.+-]+$/.test(s)) return s;
    if (s.includes('"')) throw new UnwritableNetworkError(`BIF cannot hold the name '${s}': it has a '"'`);
    return `"${s}"`;
  };
  const out: string[] = [`network ${q(net.name)} {`, '}'];
  for (const v of net.variables) {
    out.push(
      `variable ${q(v.name)} {`,
      `  type discrete [ ${v.states.length} ] { ${v.states.map(q).join(', ')} };`,
      '}',
    );
  }
  const fmt = (values: ArrayLike<number>) => Array.from(values, (x) => (Number.isNaN(x) ? '-1' : String(x))).join(', ');
  for (const cpt of net.cpts) {
    const child = net.variables[cpt.child]!;
    const k = child.states.length;
    const parents = cpt.parents.map((p) => q(net.variables[p]!.name));
    out.push(`probability ( ${q(child.name)}${parents.length ? ' | ' + parents.join(', ') : ''} ) {`);
    if (cpt.parents.length === 0) out.push(`  table ${fmt(cpt.table)};`);
    else {
      for (let r = 0; r < cpt.table.length / k; r++) {
        const states = rowAssignment(net, cpt.child, r).map((s, i) => q(net.variables[cpt.parents[i]!]!.states[s]!));
        out.push(`  (${states.join(', ')}) ${fmt(cpt.table.subarray(r * k, (r + 1) * k))};`);
      }
    }
    out.push('}');
  }
  return out.join('\n') + '\n';
}
