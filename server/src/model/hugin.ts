/**
 * Hugin's NET format (the `.net` files of Hugin, GeNIe, pgmpy, SamIam) in and out. Read: an
 * optional `net { … }` block, `node X { states = ("a" "b"); … }` (also `discrete node`, and
 * `class N { … }` around the whole network), and `potential ( X | A B ) { data = (( … ) ( … )); }`
 * whose data lists the first parent slowest and X's states fastest — the engine's layout, so the
 * nested parentheses only group. `%` starts a comment; attributes the engine has no use for
 * (label, position, HR_…, experience, user attributes) are skipped. Continuous, decision, utility
 * and function nodes, and tables given by expressions (`model_data`), are refused by name.
 * Pure text in, text out.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import {
  assembleNetwork,
  decimalNumber,
  formatNumber,
  layeredPositions,
  NetworkSyntaxError,
  readerWork,
  readWith,
  requireDeclarationsWithin,
  requireKnownTables,
  tableSize,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadResult,
} from './networkText.js';
import { PeekingLexer } from './peekingLexer.js';

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

const PUNCT = '{}()=;|,';
const WORD_END = PUNCT + '"%';

class Lexer extends PeekingLexer<Token> {
  protected scan(): Token {
    const s = this.src;
    readerWork.steps++;
    for (;;) {
      while (this.pos < s.length && s.charCodeAt(this.pos) <= 32) {
        if (s.charCodeAt(this.pos) === 10) this.line++;
        this.pos++;
      }
      if (s[this.pos] !== '%') break;
      while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
    }
    if (this.pos >= s.length) return { kind: Kind.End, text: '', line: this.line };
    const c = s[this.pos]!;
    const line = this.line;
    if (PUNCT.includes(c)) {
      this.pos++;
      return { kind: Kind.Punct, text: c, line };
    }
    if (c === '"') {
      let text = '';
      for (this.pos++; ; this.pos++) {
        if (this.pos >= s.length) throw new NetworkSyntaxError('unclosed string', line);
        const d = s[this.pos]!;
        if (d === '"') {
          this.pos++;
          break;
        }
        if (d === '\\' && this.pos + 1 < s.length) {
          text += s[++this.pos];
          continue;
        }
        if (d === '\n') this.line++;
        text += d;
      }
      return { kind: Kind.String, text, line };
    }
    const start = this.pos;
    while (this.pos < s.length && s.charCodeAt(this.pos) > 32 && !WORD_END.includes(s[this.pos]!)) this.pos++;
    return { kind: Kind.Word, text: s.slice(start, this.pos), line };
  }
}

type Value = { kind: 'atom'; token: Token } | { kind: 'list'; items: Value[]; line: number };

export function readHuginNet(text: string, budgets: Budgets = DEFAULT_BUDGETS): NetworkReadResult {
  return readWith(() => new NetParser(text, budgets).parse());
}

const NODE_KINDS = new Set(['discrete', 'continuous', 'chance', 'decision', 'utility', 'function', 'node']);

class NetParser {
  private readonly lex: Lexer;
  private name = 'unknown';
  private readonly variables: DeclaredVariable[] = [];
  private readonly tables: DeclaredTable[] = [];

  constructor(
    text: string,
    private readonly budgets: Budgets,
  ) {
    this.lex = new Lexer(text);
  }

  parse(): BayesianNetwork {
    const first = this.lex.peek();
    if (first.kind === Kind.Word && first.text === 'class') {
      this.lex.next();
      this.name = this.word('a class name').text;
      this.expect('{');
      this.statements(true);
      this.expect('}');
    } else {
      this.statements(false);
    }
    const end = this.lex.next();
    if (end.kind !== Kind.End) throw new NetworkSyntaxError(`unexpected '${end.text}' after the network`, end.line);
    if (this.variables.length === 0) {
      throw new NetworkSyntaxError(
        'no nodes: expected a Hugin NET file (net { … } node X { … } potential (X) { … })',
        1,
      );
    }
    return assembleNetwork(this.name, this.variables, this.tables, this.budgets);
  }

  private fail(t: Token, expected: string): never {
    throw new NetworkSyntaxError(`expected ${expected}, found '${t.text || 'end of file'}'`, t.line);
  }

  private expect(text: string): Token {
    const t = this.lex.next();
    if (t.kind !== Kind.Punct || t.text !== text) this.fail(t, `'${text}'`);
    return t;
  }

  private word(what: string): Token {
    const t = this.lex.next();
    if (t.kind !== Kind.Word) this.fail(t, what);
    return t;
  }

  private statements(inClass: boolean): void {
    const done = (t: Token) => t.kind === Kind.End || (inClass && t.kind === Kind.Punct && t.text === '}');
    for (let t = this.lex.peek(); !done(t); t = this.lex.peek()) {
      if (t.kind !== Kind.Word) this.fail(t, "'net', 'node' or 'potential'");
      if (t.text === 'net') {
        this.lex.next();
        this.netBlock();
      } else if (t.text === 'potential') {
        this.lex.next();
        this.potential(t);
      } else if (NODE_KINDS.has(t.text)) this.node();
      else if (t.text === 'instance' || t.text === 'temporal') {
        throw new NetworkSyntaxError(
          `object-oriented networks ('${t.text}') are not read: save the network flattened`,
          t.line,
        );
      } else if (inClass && this.isAttribute()) this.attribute();
      else this.fail(t, "'net', 'node' or 'potential'");
    }
  }

  private isAttribute(): boolean {
    return this.lex.peek().kind === Kind.Word; // inside `class`: `name = value;` lines
  }

  private netBlock(): void {
    this.expect('{');
    while (!this.atClose()) {
      const a = this.attribute();
      const named = a.key === 'name' || a.key === 'label';
      if (named && this.name === 'unknown' && a.value.kind === 'atom' && a.value.token.text) {
        this.name = a.value.token.text;
      }
    }
    this.expect('}');
  }

  private atClose(): boolean {
    const t = this.lex.peek();
    if (t.kind === Kind.End) this.fail(t, "'}'");
    return t.kind === Kind.Punct && t.text === '}';
  }

  /** `key = value ;` where value is a word, a string or a parenthesised list of them. */
  private attribute(): { key: string; value: Value; line: number } {
    const key = this.word('an attribute name');
    this.expect('=');
    const value = this.value();
    this.expect(';');
    return { key: key.text, value, line: key.line };
  }

  /** A value; lists are read without recursion so that deep nesting cannot overflow the stack. */
  private value(): Value {
    const t = this.lex.next();
    if (t.kind === Kind.Word || t.kind === Kind.String) return { kind: 'atom', token: t };
    if (t.kind !== Kind.Punct || t.text !== '(') this.fail(t, 'a value');
    const stack: { kind: 'list'; items: Value[]; line: number }[] = [{ kind: 'list', items: [], line: t.line }];
    let kept = 0;
    for (;;) {
      const u = this.lex.next();
      const top = stack[stack.length - 1]!;
      if (u.kind === Kind.Word || u.kind === Kind.String) {
        requireDeclarationsWithin('a list', ++kept, 'items', u.line, this.budgets);
        top.items.push({ kind: 'atom', token: u });
      } else if (u.kind === Kind.Punct && u.text === ',') continue;
      else if (u.kind === Kind.Punct && u.text === '(') {
        const list = { kind: 'list' as const, items: [], line: u.line };
        top.items.push(list);
        stack.push(list);
      } else if (u.kind === Kind.Punct && u.text === ')') {
        stack.pop();
        if (stack.length === 0) return top;
      } else this.fail(u, "a value or ')'");
    }
  }

  private node(): void {
    const kinds: Token[] = [];
    while (this.lex.peek().kind === Kind.Word && NODE_KINDS.has(this.lex.peek().text)) {
      kinds.push(this.lex.next());
      if (kinds[kinds.length - 1]!.text === 'node') break;
    }
    // `decision D { … }` (no `node`) is the older form
    const nameTok = this.word('a node name');
    const kind = kinds.find((k) => ['continuous', 'decision', 'utility', 'function'].includes(k.text));
    if (kind) {
      throw new NetworkSyntaxError(
        `node '${nameTok.text}' is a ${kind.text} node: only discrete chance nodes are read`,
        kind.line,
      );
    }
    this.expect('{');
    let states: string[] | undefined;
    let values: string[] | undefined;
    let subtype = 'labelled';
    const atoms = (a: { key: string; value: Value; line: number }) => {
      if (a.value.kind !== 'list') {
        throw new NetworkSyntaxError(`the ${a.key} of '${nameTok.text}' must be a list ("a" "b" …)`, a.line);
      }
      return a.value.items.map((item) => {
        if (item.kind !== 'atom')
          throw new NetworkSyntaxError(`the ${a.key} of '${nameTok.text}' must be names`, a.line);
        return item.token.text;
      });
    };
    while (!this.atClose()) {
      const a = this.attribute();
      if (a.key === 'states') states = atoms(a);
      else if (a.key === 'state_values') values = atoms(a);
      else if (a.key === 'subtype' && a.value.kind === 'atom') subtype = a.value.token.text;
    }
    this.expect('}');
    // numbered and interval nodes may leave their labels empty: name the states by their values
    const unlabelled = !states || states.includes('') || new Set(states).size !== states.length;
    if (unlabelled && values && (subtype === 'number' || subtype === 'interval')) {
      states = subtype === 'number' ? values : values.slice(1).map((hi, i) => `[${values![i]}, ${hi})`);
    }
    if (!states) throw new NetworkSyntaxError(`node '${nameTok.text}' has no 'states = ( … );'`, nameTok.line);
    requireDeclarationsWithin('the network', this.variables.length + 1, 'variables', nameTok.line, this.budgets);
    this.variables.push({ name: nameTok.text, states, line: nameTok.line });
  }

  private potential(at: Token): void {
    this.expect('(');
    const heads: Token[] = [];
    const parents: Token[] = [];
    let list = heads;
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === ')'); t = this.lex.next()) {
      if (t.kind === Kind.Punct && t.text === '|' && list === heads) {
        list = parents;
        continue;
      }
      if (t.kind !== Kind.Word) this.fail(t, "a node name or ')'");
      list.push(t);
    }
    if (heads.length !== 1) {
      throw new NetworkSyntaxError(
        `a potential must be for one node (potential ( X | parents )), found ${heads.length}`,
        at.line,
      );
    }
    const child = heads[0]!.text;
    this.expect('{');
    let data: { values: number[]; line: number } | undefined;
    let model: number | undefined;
    while (!this.atClose()) {
      if (this.lex.peek().text === 'data') {
        data = this.data();
        continue;
      }
      const a = this.attribute();
      if (a.key === 'model_data' || a.key === 'model_nodes') model ??= a.line;
    }
    this.expect('}');
    if (!data && model !== undefined) {
      throw new NetworkSyntaxError(
        `the table of '${child}' is given by expressions (model_data), which are not read: save it with data`,
        model,
      );
    }
    if (!data) throw new NetworkSyntaxError(`potential ( ${child} … ) has no 'data = ( … );'`, at.line);
    const { values, line } = data;
    this.tables.push({
      child,
      parents: parents.map((p) => p.text),
      line: at.line,
      values: (expected) => {
        if (values.length !== expected) {
          throw new NetworkSyntaxError(
            `the data of '${child}' has ${values.length} numbers, expected ${expected}`,
            line,
          );
        }
        return Float64Array.from(values);
      },
    });
  }

  /** `data = ( … );`: the numbers in reading order (the parentheses only group), each checked where it stands. */
  private data(): { values: number[]; line: number } {
    this.lex.next();
    this.expect('=');
    const open = this.expect('(');
    const values: number[] = [];
    for (let depth = 1; depth > 0;) {
      const t = this.lex.next();
      if (t.kind === Kind.Word) {
        const v = decimalNumber(t.text);
        if (!Number.isFinite(v)) throw new NetworkSyntaxError(`expected a probability, found '${t.text}'`, t.line);
        if (v < 0) throw new NetworkSyntaxError(`a probability cannot be negative: '${t.text}'`, t.line);
        // counted against the one-table budget before it is kept (the expected count is known later)
        if (values.length === this.budgets.maxTableEntries)
          tableSize([values.length + 1], 'the data', t.line, this.budgets);
        values.push(v);
      } else if (t.kind === Kind.Punct && t.text === '(') depth++;
      else if (t.kind === Kind.Punct && t.text === ')') depth--;
      else if (!(t.kind === Kind.Punct && t.text === ',')) this.fail(t, "a probability or ')'");
    }
    this.expect(';');
    return { values, line: open.line };
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Writes the network as Hugin NET. Node names must be identifiers there: other names are
 * written as identifiers (characters replaced by `_`, made unique) with the name kept as label.
 */
export function writeHuginNet(net: BayesianNetwork): string {
  requireKnownTables(net, 'Hugin NET');
  const used = new Set(net.variables.filter((v) => IDENTIFIER.test(v.name)).map((v) => v.name));
  const ids = net.variables.map((v) => {
    if (IDENTIFIER.test(v.name)) return v.name;
    const base = v.name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9]|$)/, 'N');
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    return id;
  });
  const name = net.name === 'unknown' ? [] : [`    name = ${quote(net.name)};`];
  const out = ['net', '{', '    node_size = (80 40);', ...name, '}'];
  const positions = layeredPositions(net);
  net.variables.forEach((v, i) => {
    const label = ids[i] === v.name ? [] : [`    label = ${quote(v.name)};`];
    const [x, y] = positions[i]!;
    const states = `    states = (${v.states.map(quote).join(' ')});`;
    out.push('', `node ${ids[i]}`, '{', ...label, `    position = (${x} ${y});`, states, '}');
  });
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    const parents = cpt.parents.map((p) => ids[p]!);
    out.push('', `potential ( ${ids[cpt.child]}${parents.length ? ' | ' + parents.join(' ') : ''} )`, '{');
    out.push(
      ...nestedData(
        cpt.table,
        cpt.parents.map((p) => net.variables[p]!.states.length),
        k,
      ),
    );
    out.push('}');
  }
  return out.join('\n') + '\n';
}

/** `data = (( a b ) ( c d ));` with one level of parentheses per parent, one row per line. */
function nestedData(table: Float64Array, parentCards: number[], k: number): string[] {
  if (parentCards.length === 0) return [`    data = (${Array.from(table, formatNumber).join(' ')});`];
  const rows = table.length / k;
  /** How many groups (one per parent but the last) start at this row: its trailing zero digits. */
  const groupsAt = (row: number) => {
    let n = 0;
    for (let i = parentCards.length - 1, q = row; i >= 1 && q % parentCards[i]! === 0; i--) {
      n++;
      q = Math.floor(q / parentCards[i]!);
    }
    return n;
  };
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    const row = Array.from(table.subarray(r * k, (r + 1) * k), formatNumber).join(' ');
    const prefix = (r === 0 ? '    data = (' : '            ') + '('.repeat(groupsAt(r));
    lines.push(`${prefix}(${row})${')'.repeat(groupsAt(r + 1))}${r === rows - 1 ? ');' : ''}`);
  }
  return lines;
}
