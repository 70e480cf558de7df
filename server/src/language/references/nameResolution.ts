/**
 * Builds the name index of a file (see nameIndex.ts): first every declaration, then every use,
 * resolved in the scope it appears in. One index per parse, cached on the AST.
 */
import type * as A from '../ast.js';
import { forEachChild } from '../ast.js';
import { cellIsName, cellNode, cellText, ScannedRow } from '../dataCells.js';
import { classifierTarget, declaredKinds, trainingData } from './declarations.js';
import {
  NameIndex,
  stateNamed,
  comparePositions,
  type CellBlock,
  type NameKind,
  type NameSymbol,
} from './nameIndex.js';

const cache = new WeakMap<A.BayesFile, NameIndex>();

export function nameIndex(file: A.BayesFile): NameIndex {
  let index = cache.get(file);
  if (!index) {
    index = new Builder(file).build();
    cache.set(file, index);
  }
  return index;
}

/** The editor's kind of a file-wide name: an imported network is a network; a broken statement declares none. */
function globalKind(s: A.Statement): NameKind | undefined {
  const kind = declaredKinds[s.kind];
  return kind === 'import' ? 'network' : kind === 'unknown' ? undefined : kind;
}

class Builder {
  private readonly index = new NameIndex();
  constructor(private readonly file: A.BayesFile) {}

  build(): NameIndex {
    this.declare(this.file.statements, '');
    this.resolveStatements(this.file.statements, '');
    this.index.occurrences.sort((a, b) => comparePositions(a.name.range.start, b.name.range.start));
    return this.index;
  }

  // ── declarations ─────────────────────────────────────────────────────────────────────────

  private symbol(id: string, init: Omit<NameSymbol, 'id'>): NameSymbol {
    let s = this.index.symbols.get(id);
    if (!s) {
      s = { id, ...init };
      this.index.symbols.set(id, s);
      if (init.declaration) this.occur(init.declaration, s, true);
    }
    return s;
  }

  private occur(name: A.Name | undefined, symbol: NameSymbol | undefined, declaration = false): void {
    if (name && symbol) this.index.occurrences.push({ name, symbol, declaration });
  }

  private scope(name: string): Map<string, NameSymbol> {
    let m = this.index.scopes.get(name);
    if (!m) this.index.scopes.set(name, (m = new Map()));
    return m;
  }

  private addVariable(scope: string, v: NameSymbol): void {
    const m = this.scope(scope);
    if (!m.has(v.name)) m.set(v.name, v);
    if (scope === '') this.addGlobal(v);
  }

  /** The first global of a name wins; later ones are duplicates the checker reports. */
  private addGlobal(g: NameSymbol): void {
    if (!this.index.globals.has(g.name)) this.index.globals.set(g.name, g);
  }

  private declareGlobal(kind: NameKind, name: A.Name, statement: A.Statement): void {
    this.addGlobal(this.symbol(`g:${name.text}`, { kind, name: name.text, declaration: name, statement, scope: '' }));
  }

  private declare(statements: A.Statement[], scope: string): void {
    for (const s of statements) {
      const kind = globalKind(s);
      if (kind && 'name' in s && s.name && s.kind !== 'hypotheses') this.declareGlobal(kind, s.name, s);
      if (s.kind === 'variable') this.declareVariable(s, scope);
      else if (s.kind === 'decision') this.declareVariable(s, scope);
      else if (s.kind === 'hypotheses') this.declareHypotheses(s, scope);
      else if (s.kind === 'network') this.declare(s.statements, s.name.text);
      else if (s.kind === 'learn' && s.structure) this.declareGlobal('network', s.model, s);
      else if (s.kind === 'queryStatement' && s.query.form === 'strength') {
        this.declareGlobal('network', s.query.model, s);
      }
    }
    for (const s of statements) if (s.kind === 'data') this.declareColumns(s);
  }

  private declareVariable(s: A.VariableDecl | A.DecisionDecl, scope: string): void {
    for (const name of s.kind === 'decision' ? [s.name] : s.names) {
      const v = this.symbol(`v:${scope}:${name.text}`, {
        kind: 'variable',
        name: name.text,
        declaration: name,
        statement: s,
        scope,
      });
      v.states ??=
        s.domain.type === 'bool'
          ? ['true', 'false'].map((t) => this.symbol(`s:${v.id}:${t}`, { kind: 'state', name: t, scope, owner: v }))
          : s.domain.states.map((st) =>
              this.symbol(`s:${v.id}:${st.text}`, {
                kind: 'state',
                name: st.text,
                declaration: st,
                scope,
                owner: v,
                statement: s,
              }),
            );
      this.addVariable(scope, v);
    }
  }

  private declareHypotheses(s: A.HypothesesDecl, scope: string): void {
    const h = this.symbol(`v:${scope}:${s.name.text}`, {
      kind: 'hypotheses',
      name: s.name.text,
      declaration: s.name,
      statement: s,
      scope,
    });
    h.states = s.entries.map((e) =>
      this.symbol(`s:${h.id}:${e.name.text}`, {
        kind: 'hypothesis',
        name: e.name.text,
        declaration: e.name,
        statement: s,
        scope,
        owner: h,
      }),
    );
    this.addVariable(scope, h);
    this.addGlobal(h);
  }

  /**
   * Inline data columns name variables; an undeclared one is a column of its own, whose values
   * are those its cells name. Cells of scanned rows stay in their store (see `CellBlock`).
   */
  private declareColumns(s: A.DataDecl): void {
    const block: CellBlock = { decl: s, columns: [] };
    const plain = s.rows.filter((row) => !(row instanceof ScannedRow));
    const scanned = plain.length < s.rows.length ? s.rows : [];
    s.header.forEach((col, i) => {
      const variable = this.index.variable('', col.text);
      const symbol =
        variable ??
        this.symbol(`c:${s.name.text}:${col.text}`, {
          kind: 'column',
          name: col.text,
          declaration: col,
          statement: s,
          scope: `data:${s.name.text}`,
          states: [],
        });
      if (variable) this.occur(col, variable);
      this.scope(`data:${s.name.text}`).set(col.text, symbol);
      block.columns.push(symbol);
      for (const row of plain) {
        if (cellIsName(row, i))
          this.occur((cellNode(row, i) as A.Ref).name, this.stateOf(symbol, cellText(row, i)!, true));
      }
      if (symbol.kind === 'column') this.collectValues(symbol, scanned, i);
    });
    if (scanned.length > 0) this.index.cellBlocks.push(block);
  }

  /** The values an undeclared column's scanned cells name, in order of appearance. */
  private collectValues(column: NameSymbol, rows: readonly A.DataRow[], i: number): void {
    const seen = new Set<string>();
    for (const row of rows) {
      if (!(row instanceof ScannedRow) || !cellIsName(row, i)) continue;
      const text = row.textAt(i);
      if (!seen.has(text)) {
        seen.add(text);
        this.stateOf(column, text, true);
      }
    }
  }

  /** A value of a variable; data columns without a declared domain collect their values as seen. */
  private stateOf(variable: NameSymbol | undefined, text: string, create = false): NameSymbol | undefined {
    const found = stateNamed(variable, text);
    if (found || !create || variable?.kind !== 'column') return found;
    const s = this.symbol(`s:${variable.id}:${text}`, {
      kind: 'state',
      name: text,
      scope: variable.scope,
      owner: variable,
    });
    variable.states!.push(s);
    return s;
  }

  // ── uses ─────────────────────────────────────────────────────────────────────────────────

  private resolveStatements(statements: A.Statement[], scope: string): void {
    for (const s of statements) this.resolveStatement(s, scope);
  }

  private resolveStatement(s: A.Statement, scope: string): void {
    switch (s.kind) {
      case 'network':
        return this.resolveStatements(s.statements, s.name.text);
      case 'table':
        return this.resolveTable(s, scope);
      case 'observe': {
        // `observe … in N` looks in N (any network, imports included).
        this.global(s.in);
        const observed = s.in ? this.modelScope(s.in) : scope;
        return s.items.forEach((a) => this.assignment(a, observed));
      }
      case 'learn':
        this.global(s.model);
        this.global(s.from);
        return this.loose(s.options, this.modelScope(s.model));
      case 'classifier':
      case 'mixture':
        return this.loose(s.definition, '');
      case 'hypotheses':
        this.loose(s.generator, '');
        for (const e of s.entries) this.loose(e.tree, '');
        return;
      case 'decision':
        return s.information.forEach((n) => this.occur(n, this.index.variable(scope, n.text)));
      case 'utility': {
        const parents = s.parents.map((n) => {
          const v = this.index.variable(scope, n.text);
          this.occur(n, v);
          return v;
        });
        for (const row of s.rows) row.keys.forEach((key, i) => this.occur(key, this.stateOf(parents[i], key.text)));
        return;
      }
      case 'queryStatement':
        return this.resolveQuery(s.query, scope);
      case 'expectStatement':
        this.resolveQuery(s.query, scope);
        return this.comparison(s, scope);
      default:
    }
  }

  private resolveTable(t: A.TableDecl, scope: string): void {
    const target = t.head.targets[0] ? this.assignment(t.head.targets[0], scope) : undefined;
    for (const extra of t.head.targets.slice(1)) this.assignment(extra, scope);
    const parents = t.head.conditions.map((c) => this.assignment(c, scope));
    // A conditional linear Gaussian table's rows are keyed by its discrete parents only.
    // Without parents (`P(Sex) { male: 0.5, … }`) the keys are the variable's own states.
    const keyed = t.rows.some((row) => row.normal)
      ? parents.filter((p) => !isContinuous(p))
      : parents.length
        ? parents
        : [target];
    for (const row of t.rows) {
      row.keys.forEach((key, i) => this.occur(key, this.stateOf(keyed[i], key.text)));
      for (const e of row.entries) if (e.state) this.occur(e.state, this.stateOf(target, e.state.text));
    }
    this.loose(t.parameterPrior, scope);
    // `~ Normal(mean: 0, Height: 0.5, variance: 1)` or a row's `Normal(…)`: a coefficient is named by its parent.
    const regressions = [t.parameterPrior, ...t.rows.map((row) => row.normal)];
    for (const call of regressions)
      if (call?.kind === 'call' && call.callee.text === 'Normal')
        for (const arg of call.args) {
          const i = arg.name ? t.head.conditions.findIndex((c) => c.variable.text === arg.name!.text) : -1;
          if (i >= 0) this.occur(arg.name!, parents[i]);
        }
    for (const e of t.canonical?.entries ?? []) {
      const i = t.head.conditions.findIndex((c) => c.variable.text === e.cause.text);
      if (i < 0) continue; // `leak`
      this.occur(e.cause, parents[i]);
      for (const row of e.rows) row.keys.forEach((key) => this.occur(key, this.stateOf(parents[i], key.text)));
    }
  }

  /** `X`, `X = v`, `X = [v, w]`: the variable, then its values. */
  private assignment(a: A.Assignment, scope: string): NameSymbol | undefined {
    const v = this.index.variable(scope, a.variable.text);
    // `given Days`: a data set as evidence.
    this.occur(a.variable, v ?? (a.value ? undefined : this.index.globals.get(a.variable.text)));
    this.values(a.value, v);
    // `X ~ { a: 0.7, b: 0.3 }`: the states of a soft or virtual finding.
    for (const entry of a.finding?.entries ?? []) {
      if (entry.state) this.occur(entry.state, this.stateOf(v, entry.state.text));
    }
    return v;
  }

  private values(value: A.Expr | undefined, v: NameSymbol | undefined): void {
    if (!value) return;
    if (value.kind === 'list') value.items.forEach((item) => this.values(item, v));
    else if (value.kind === 'ref' && !value.member && !value.columns)
      this.occur(value.name, this.stateOf(v, value.name.text));
  }

  private global(name: A.Name | undefined): NameSymbol | undefined {
    const g = name ? this.index.globals.get(name.text) : undefined;
    this.occur(name, g);
    return g;
  }

  /** The scope queries `in N` look in: a network's own, a classifier's data columns. */
  private modelScope(name: A.Name | undefined): string {
    if (!name) return '';
    const g = this.index.globals.get(name.text);
    if (g?.kind === 'classifier' && g.statement?.kind === 'classifier') {
      const data = trainingData(g.statement);
      if (data) return `data:${data.text}`;
    }
    return name.text;
  }

  private resolveQuery(q: A.Query, scope: string): void {
    const given = (items: A.Assignment[], s: string) => items.forEach((a) => this.assignment(a, s));
    const prob = (p: A.ProbExpr, s: string) => [...p.targets, ...p.conditions].forEach((a) => this.assignment(a, s));
    switch (q.form) {
      case 'posterior':
      case 'map':
      case 'ml':
      case 'mdl':
      case 'size':
        this.occur(q.target, this.index.variable(scope, q.target.text));
        return given(q.given, scope);
      case 'optimal':
      case 'gibbs':
        this.occur(q.target, this.index.variable(scope, q.target.text) ?? this.index.globals.get(q.target.text));
        this.global(q.over);
        return this.loose(q.options, scope);
      case 'probability': {
        const s = q.in ? this.modelScope(q.in) : scope;
        this.global(q.in);
        prob(q.prob, s);
        given(q.given, s);
        return this.loose(q.options, s);
      }
      case 'mpe':
        this.global(q.network);
        return given(q.given, q.network ? this.modelScope(q.network) : scope);
      case 'sensitivity':
        this.global(q.in);
        return prob(q.prob, q.in ? this.modelScope(q.in) : scope);
      case 'independent': {
        const s = q.in ? this.modelScope(q.in) : scope;
        this.global(q.in);
        for (const n of [...q.variables, ...q.given]) this.occur(n, this.index.variable(s, n.text));
        return;
      }
      case 'classify': {
        this.global(q.classifier);
        const s = this.modelScope(q.classifier);
        for (const e of q.instance.entries) {
          const v = e.name ? this.index.variable(s, e.name.text) : undefined;
          this.occur(e.name, v);
          this.values(e.value, v);
        }
        return;
      }
      case 'evaluate':
        this.global(q.classifier);
        this.global(q.on);
        return this.loose(q.options, scope);
      case 'predict':
        this.global(q.in);
        this.global(q.on);
        this.occur(q.variable, this.index.variable(this.modelScope(q.in), q.variable.text));
        return;
      case 'validate':
        this.global(q.network);
        this.global(q.on);
        this.occur(q.target, this.index.variable(this.modelScope(q.network), q.target.text));
        return;
      case 'moment': {
        this.global(q.in);
        const observed = q.in ? this.modelScope(q.in) : scope;
        this.occur(q.variable, this.index.variable(observed, q.variable.text));
        return given(q.given, observed);
      }
      case 'mean':
      case 'mode':
      case 'interval':
      case 'bound':
        prob(q.prob, scope);
        return given(q.given, scope);
      case 'estimate':
        this.global(q.model);
        return;
      case 'bic':
      case 'likelihood':
        this.occur(q.model, this.index.globals.get(q.model.text) ?? this.hypothesis(q.model.text));
        this.global(q.given);
        return;
      case 'learning_curve':
        this.global(q.classifier);
        return this.loose(q.options, scope);
      case 'accuracy':
        this.global(q.classifier);
        this.global(q.on);
        return;
      case 'policy':
        this.global(q.network);
        return given(q.given, q.network ? this.modelScope(q.network) : scope);
      case 'eu':
      case 'voi':
      case 'effect': {
        const s = q.in ? this.modelScope(q.in) : scope;
        this.global(q.in);
        const names =
          q.form === 'eu' ? [q.decision] : q.form === 'voi' ? [q.variable, q.decision] : [q.cause, q.effect];
        for (const n of names) this.occur(n, this.index.variable(s, n.text));
        return given(q.given, s);
      }
      case 'strength':
        this.global(q.model);
        this.global(q.from);
        return this.loose(q.options, q.model.text);
    }
  }

  /** `expect map D = healthy`, `expect classify C {…} = No`: the value is a state of the queried variable. */
  private comparison(s: A.ExpectStmt, scope: string): void {
    const value = s.comparison.value;
    if (value.kind !== 'ref' || value.member || value.columns) return;
    const q = s.query;
    let target: NameSymbol | undefined;
    if (
      q.form === 'map' ||
      q.form === 'ml' ||
      q.form === 'mdl' ||
      q.form === 'posterior' ||
      q.form === 'optimal' ||
      q.form === 'gibbs'
    ) {
      target = this.index.variable(scope, q.target.text);
    } else if (q.form === 'classify') {
      target = this.classifierTarget(q.classifier.text);
    }
    this.occur(value.name, this.stateOf(target, value.name.text) ?? this.hypothesis(value.name.text));
  }

  private classifierTarget(classifier: string): NameSymbol | undefined {
    const g = this.index.globals.get(classifier);
    if (g?.statement?.kind !== 'classifier') return undefined;
    const target = classifierTarget(g.statement);
    return target ? this.index.variable(this.modelScope(g.statement.name), target.text) : undefined;
  }

  private hypothesis(text: string): NameSymbol | undefined {
    for (const s of this.index.symbols.values()) if (s.kind === 'hypothesis' && s.name === text) return s;
    return undefined;
  }

  /**
   * Calls, options, generators and trees: names there are data sets (`naive_bayes(Tennis, …)`),
   * columns (`target: Play`, `Points.x`) or variables (`order: [A, B]`, `P(Action = reads)`).
   * Option keys and function names are not references.
   */
  private loose(node: A.AstNode | undefined, scope: string): void {
    if (!node) return;
    if (node.kind === 'assignment') return void this.assignment(node, scope);
    if (node.kind === 'ref') {
      const g = this.index.globals.get(node.name.text);
      const v =
        g && g.kind !== 'variable' && g.kind !== 'hypotheses' ? g : (this.index.variable(scope, node.name.text) ?? g);
      this.occur(node.name, v);
      if (v?.kind === 'data') {
        const columns = this.index.scopes.get(`data:${v.name}`);
        for (const c of [node.member, ...(node.columns ?? [])]) if (c) this.occur(c, columns?.get(c.text));
      }
      return;
    }
    if (node.kind === 'call') return node.args.forEach((a) => this.loose(a.value, scope));
    if (node.kind === 'arg') return this.loose(node.value, scope);
    if (node.kind === 'name') return;
    if (node.kind === 'arc') {
      for (const n of [node.from, node.to]) this.occur(n, this.index.variable(scope, n.text));
      return;
    }
    const recurse = (child: A.AstNode) => this.loose(child, scope);
    if (node.kind === 'options') return node.entries.forEach((e) => this.loose(e.value, scope));
    forEachChild(node, recurse);
  }
}

/** A `real` variable: it has no states to key a row. */
function isContinuous(symbol: NameSymbol | undefined): boolean {
  return symbol?.statement?.kind === 'variable' && symbol.statement.domain.type === 'real';
}
