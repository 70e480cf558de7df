/**
 * Hugin's NET format (the `.net` files of Hugin, GeNIe, pgmpy, SamIam) in and out. Read: an
 * optional `net { … }` block, `node X { states = ("a" "b"); … }` (also `discrete node`, and
 * `class N { … }` around the whole network), and `potential ( X | A B ) { data = (( … ) ( … )); }`
 * whose data lists the first parent slowest and X's states fastest — the engine's layout, so the
 * nested parentheses only group. `%` starts a comment; attributes the engine has no use for
 * (label, position, HR_…, experience, user attributes) are skipped. Decision, utility and function
 * nodes, and tables given by expressions (`model_data`), are refused by name; continuous nodes
 * too by readHuginNet, while readHuginHybrid reads them and their conditional linear Gaussian
 * potentials (huginGaussian.ts) into the hybrid IR (engine/gaussian).
 * Pure text in, text out.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import {
  assembleNetwork,
  formatNumber,
  layeredPositions,
  NetworkSyntaxError,
  readWith,
  requireKnownTables,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadResult,
  UnwritableNetworkError,
} from './networkText.js';
import { PeekingLexer } from './peekingLexer.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { hybridParents } from '../engine/gaussian/hybridNetwork.js';
import {
  assembleHybridNetwork,
  gaussianDataLines,
  type DeclaredGaussian,
  type DeclaredNode,
  type NormalCall,
} from './huginGaussian.js';

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

/**
 * Reads a NET file that may have continuous nodes (conditional linear Gaussian potentials,
 * huginGaussian.ts): a discrete network as readHuginNet does, else the hybrid IR.
 */
export function readHuginHybrid(text: string, budgets: Budgets = DEFAULT_BUDGETS): HuginReadResult {
  let hybrid: HybridNetwork | undefined;
  const read = readWith(() => {
    const parser = new NetParser(text, budgets, new HybridParts());
    const net = parser.parse();
    hybrid = parser.hybridNetwork();
    return net;
  });
  return hybrid ? { hybrid } : read;
}

/** A discrete network, a hybrid one (with continuous nodes), or the error. */
export type HuginReadResult = NetworkReadResult | { hybrid: HybridNetwork };

/** What a hybrid read collects beside the discrete parts: the node order and the continuous potentials. */
class HybridParts {
  readonly nodes: DeclaredNode[] = [];
  readonly continuous = new Set<string>();
  readonly gaussians: DeclaredGaussian[] = [];
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
    private readonly hybrid?: HybridParts,
  ) {
    this.lex = new Lexer(text);
  }

  /** After parse(): the hybrid network when the file has continuous nodes (hybrid reads only). */
  hybridNetwork(): HybridNetwork | undefined {
    const h = this.hybrid;
    if (!h || h.continuous.size === 0) return undefined;
    return assembleHybridNetwork(this.name, h.nodes, this.tables, h.gaussians, this.budgets);
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
    if (this.variables.length === 0 && !this.hybrid?.continuous.size) {
      throw new NetworkSyntaxError(
        'no nodes: expected a Hugin NET file (net { … } node X { … } potential (X) { … })',
        1,
      );
    }
    if (this.hybrid?.continuous.size) return { name: this.name, variables: [], cpts: [] }; // see hybridNetwork()
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
    for (;;) {
      const u = this.lex.next();
      const top = stack[stack.length - 1]!;
      if (u.kind === Kind.Word || u.kind === Kind.String) top.items.push({ kind: 'atom', token: u });
      else if (u.kind === Kind.Punct && u.text === ',') continue;
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
    if (kind?.text === 'continuous' && this.hybrid) return this.continuousNode(nameTok);
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
    const unlabelled = !states || states.some((s, i) => s === '' || states!.indexOf(s) !== i);
    if (unlabelled && values && (subtype === 'number' || subtype === 'interval')) {
      states = subtype === 'number' ? values : values.slice(1).map((hi, i) => `[${values![i]}, ${hi})`);
    }
    if (!states) throw new NetworkSyntaxError(`node '${nameTok.text}' has no 'states = ( … );'`, nameTok.line);
    this.variables.push({ name: nameTok.text, states, line: nameTok.line });
    this.hybrid?.nodes.push({ name: nameTok.text, states, line: nameTok.line });
  }

  /** `continuous node X { … }`: its attributes (label, position, …) say nothing the engine uses. */
  private continuousNode(nameTok: Token): void {
    this.expect('{');
    while (!this.atClose()) this.attribute();
    this.expect('}');
    this.hybrid!.continuous.add(nameTok.text);
    this.hybrid!.nodes.push({ name: nameTok.text, line: nameTok.line });
  }

  /** The body of a continuous node's potential: `data = ( normal ( mean, variance ) … );`, nesting free. */
  private gaussianPotential(at: Token, child: string, parents: Token[]): void {
    this.expect('{');
    let normals: NormalCall[] | undefined;
    while (!this.atClose()) {
      if (this.lex.peek().text === 'data') normals = this.normals();
      else this.attribute();
    }
    this.expect('}');
    if (!normals) throw new NetworkSyntaxError(`potential ( ${child} … ) has no 'data = ( normal ( … ) … );'`, at.line);
    this.hybrid!.gaussians.push({ child, parents: parents.map((p) => p.text), line: at.line, normals });
  }

  private normals(): NormalCall[] {
    this.lex.next();
    this.expect('=');
    this.expect('(');
    const calls: NormalCall[] = [];
    for (let depth = 1; depth > 0;) {
      const t = this.lex.next();
      if (t.kind === Kind.Word && t.text === 'normal') calls.push(this.normalCall(t));
      else if (t.kind === Kind.Punct && t.text === '(') depth++;
      else if (t.kind === Kind.Punct && t.text === ')') depth--;
      else this.fail(t, "'normal ( mean, variance )' or ')'");
    }
    this.expect(';');
    return calls;
  }

  /** `normal ( words… , words… )`: the argument texts, joined with spaces (the lexer keeps `2*Y` whole). */
  private normalCall(at: Token): NormalCall {
    this.expect('(');
    const args: string[][] = [[]];
    for (let t = this.lex.next(); !(t.kind === Kind.Punct && t.text === ')'); t = this.lex.next()) {
      if (t.kind === Kind.Punct && t.text === ',') args.push([]);
      else if (t.kind === Kind.Word) args[args.length - 1]!.push(t.text);
      else this.fail(t, "a number, a node name, '+', '-', '*', ',' or ')'");
    }
    if (args.length !== 2) {
      throw new NetworkSyntaxError(`normal ( … ) takes two arguments (mean, variance), found ${args.length}`, at.line);
    }
    return { mean: args[0]!.join(' '), variance: args[1]!.join(' '), line: at.line };
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
    if (this.hybrid?.continuous.has(child)) return this.gaussianPotential(at, child, parents);
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
        const v = Number(t.text);
        if (!Number.isFinite(v)) throw new NetworkSyntaxError(`expected a probability, found '${t.text}'`, t.line);
        if (v < 0) throw new NetworkSyntaxError(`a probability cannot be negative: '${t.text}'`, t.line);
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

/**
 * Writes a hybrid network as Hugin NET: discrete nodes and tables as writeHuginNet does,
 * continuous nodes as `continuous node X { }` with one `normal ( mean, variance )` per
 * configuration of their discrete parents (huginGaussian.ts).
 */
export function writeHuginHybrid(net: HybridNetwork): string {
  const ids = huginIds(net.variables.map((v) => v.name));
  const name = net.name === 'unknown' ? [] : [`    name = ${quote(net.name)};`];
  const out = ['net', '{', '    node_size = (80 40);', ...name, '}'];
  const shape = {
    name: net.name,
    variables: net.variables.map((v) => ({ name: v.name, states: [] })),
    cpts: net.variables.map((_, v) => ({ child: v, parents: hybridParents(net, v), table: new Float64Array(0) })),
  };
  const positions = layeredPositions(shape);
  net.variables.forEach((v, i) => {
    const label = ids[i] === v.name ? [] : [`    label = ${quote(v.name)};`];
    const [x, y] = positions[i]!;
    const head = v.kind === 'continuous' ? `continuous node ${ids[i]}` : `node ${ids[i]}`;
    const states = v.kind === 'discrete' ? [`    states = (${v.states.map(quote).join(' ')});`] : [];
    out.push('', head, '{', ...label, `    position = (${x} ${y});`, ...states, '}');
  });
  const cards = (v: number) => {
    const variable = net.variables[v]!;
    return variable.kind === 'discrete' ? variable.states.length : 1;
  };
  for (const [v, cpd] of net.cpds.entries()) {
    const parents = hybridParents(net, v).map((p) => ids[p]!);
    out.push('', `potential ( ${ids[v]}${parents.length ? ' | ' + parents.join(' ') : ''} )`, '{');
    if (cpd.kind === 'discrete') {
      if (cpd.cpt.table.some(Number.isNaN)) {
        throw new UnwritableNetworkError(
          `P(${net.variables[v]!.name} | …) has unknown entries, which Hugin NET cannot mark`,
        );
      }
      out.push(...nestedData(cpd.cpt.table, cpd.cpt.parents.map(cards), cards(v)));
    } else {
      const names = cpd.cpd.continuousParents.map((p) => ids[p]!);
      out.push(...gaussianDataLines(cpd.cpd, cpd.cpd.discreteParents.map(cards), names));
    }
    out.push('}');
  }
  return out.join('\n') + '\n';
}

/** Node names as Hugin identifiers: others get `_` for each bad character, made unique (the name kept as label). */
function huginIds(names: string[]): string[] {
  const used = new Set(names.filter((n) => IDENTIFIER.test(n)));
  return names.map((n) => {
    if (IDENTIFIER.test(n)) return n;
    const base = n.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9]|$)/, 'N');
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    return id;
  });
}
