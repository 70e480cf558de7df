/**
 * Completion: statement keywords at the start of a line, the names a position expects (data
 * after `from`, networks after `in`, parents in `P(X | …)`, values after `X =` and in CPT rows),
 * otherwise every declared name.
 */
import { CompletionItemKind, type CompletionItem, type Position } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import type { NameIndex, NameKind, NameSymbol } from '../language/index.js';
import { nameIndex } from '../language/index.js';
import { positionContext, type PositionContext } from './context.js';
import { INFERENCE_METHODS, SAMPLER_OPTIONS } from '../language/check/queries.js';
import { isLearnMethod, LEARN_OPTIONS, optionsOf, STRUCTURE_METHODS, TABLE_METHODS } from '../language/learnMethods.js';
import { InsertTextFormat } from 'vscode-languageserver/node';
import { SNIPPETS } from './snippets.js';
import { HYPOTHESIS_PRIORS } from '../language/check/declarations.js';
import { FUNCTIONS, QUERY_FORMS, STATEMENT_KEYWORDS } from './vocabulary.js';
import { sliceKey } from '../language/check/dynamic.js';

const ITEM_KIND: Record<NameKind, CompletionItemKind> = {
  variable: CompletionItemKind.Variable,
  state: CompletionItemKind.EnumMember,
  hypotheses: CompletionItemKind.Enum,
  hypothesis: CompletionItemKind.EnumMember,
  network: CompletionItemKind.Module,
  data: CompletionItemKind.Struct,
  column: CompletionItemKind.Field,
  corpus: CompletionItemKind.Struct,
  classifier: CompletionItemKind.Class,
  mixture: CompletionItemKind.Class,
};

/** Characters before the position that completion reads. */
const COMPLETION_WINDOW = 400;

export function completion(file: A.BayesFile, text: string, position: Position): CompletionItem[] {
  const index = nameIndex(file);
  const ctx = positionContext(file, text, position);
  // Only the end of a long line says what is expected: the patterns below would take quadratic time on all of it.
  const before = ctx.linePrefix.slice(-COMPLETION_WINDOW).replace(/[A-Za-z0-9_]*$/, '');
  const names = (symbols: Iterable<NameSymbol>) => [...symbols].map(item);
  const globals = (...kinds: NameKind[]) => names([...index.globals.values()].filter((g) => kinds.includes(g.kind)));
  const keywords = (words: readonly string[]) => words.map((w) => ({ label: w, kind: CompletionItemKind.Keyword }));

  // Nothing is offered inside a comment or a string (a path, a name in quotes).
  if (inCommentOrString(ctx.linePrefix)) return [];
  if (/^\s*$/.test(before) && !insideBlock(ctx)) return [...keywords(STATEMENT_KEYWORDS), ...snippets()];
  const options = optionsExpected(ctx, before);
  if (options) return options.map((o) => ({ label: o, kind: CompletionItemKind.Property, detail: 'option' }));
  if (/\b(from)\s+$/.test(before)) return globals('data', 'corpus');
  if (/\b(in)\s+$/.test(before)) return globals('network', 'classifier');
  if (/\bover\s+$/.test(before)) return globals('hypotheses');
  if (/\bby\s+$/.test(before)) return keywords(/\bstructure\b/.test(before) ? STRUCTURE_METHODS : TABLE_METHODS);
  if (/\busing\s+$/.test(before)) return keywords(INFERENCE_METHODS);
  if (/\bprior\s+$/.test(before)) return keywords(HYPOTHESIS_PRIORS);
  if (/\b(query|expect)\s+$/.test(before)) return keywords(QUERY_FORMS);
  if (/\b(posterior|map|ml|mdl)\s+$/.test(before)) return globals('hypotheses');
  if (/\b(classify|evaluate|accuracy|learning_curve)\s+$/.test(before)) return globals('classifier');
  if (/\blearn\s+$/.test(before)) return [...globals('network', 'mixture', 'classifier'), ...keywords(['structure'])];
  if (/[=~]\s*$/.test(before) && /^\s*(classifier|mixture|hypotheses)\b/.test(ctx.linePrefix))
    return keywords(Object.keys(FUNCTIONS));

  const finding = findingExpected(index, ctx, before);
  if (finding) return finding === 'likelihood' ? keywords(['likelihood']) : names(finding);
  const regression = regressionExpected(index, ctx, before);
  if (regression) return regression;
  const value = valueExpected(index, ctx, before);
  if (value) return names(value);
  if (/\bP\s*\([^)]*$/.test(before)) return names(index.variablesVisible(modelScope(ctx, index)));
  return [
    ...names(index.variablesVisible(ctx.scope)),
    ...globals('network', 'data', 'corpus', 'classifier', 'mixture'),
  ];
}

function item(s: NameSymbol): CompletionItem {
  const owner = s.owner ? `${s.owner.kind === 'hypotheses' ? 'hypothesis of' : 'value of'} ${s.owner.name}` : s.kind;
  return { label: s.name, kind: ITEM_KIND[s.kind], detail: owner };
}

/** The scope names in `P(…)` resolve in: the `in N` network later on the query's line, else the statement's. */
function modelScope(ctx: PositionContext, index: NameIndex): string {
  const m = /\)\s*in\s+([A-Za-z_]\w*)/.exec(ctx.line);
  return m && index.globals.get(m[1])?.kind === 'network' ? m[1] : ctx.scope;
}

/**
 * `X ~ ` expects `likelihood` (or the `{` of soft evidence); `X ~ [likelihood] { …` a state of X
 * where a key goes, X looked up in the `in N` of the line if it names a network.
 */
function findingExpected(
  index: NameIndex,
  ctx: PositionContext,
  before: string,
): NameSymbol[] | 'likelihood' | undefined {
  if (/\b[A-Za-z_]\w*\s*~\s*$/.test(before) && !/^\s*(classifier|mixture|hypotheses)\b|\)\s*~\s*$/.test(before)) {
    return 'likelihood';
  }
  const m = /([A-Za-z_]\w*)\s*~\s*(?:likelihood\s*)?\{(?:\s*[\w"]+\s*:\s*[\w.%/+-]+\s*,?)*\s*$/.exec(before);
  if (!m) return undefined;
  const n = /\bin\s+([A-Za-z_]\w*)/.exec(ctx.line);
  const scope = n && index.globals.get(n[1]!)?.kind === 'network' ? n[1]! : ctx.scope;
  return index.variable(scope, m[1]!)?.states ?? [];
}

/** Inside `{ … }` of a table, hypothesis space or data block, a line starts with values, not keywords. */
function insideBlock(ctx: PositionContext): boolean {
  const s = ctx.statement;
  return !!s && s.kind !== 'network' && s.range.start.line < ctx.position.line;
}

/** The values of the variable a value is expected for, if the position expects one. */
function valueExpected(index: NameIndex, ctx: PositionContext, before: string): NameSymbol[] | undefined {
  const assigned = /([A-Za-z_]\w*)\s*(=|:)\s*\[?(?:[\w"]+\s*,\s*)*$/.exec(before);
  if (assigned) {
    const v = index.variable(ctx.scope, assigned[1]);
    if (
      v?.states?.length &&
      (assigned[2] === '=' || ctx.statement?.kind === 'queryStatement' || ctx.statement?.kind === 'expectStatement')
    )
      return v.states;
  }
  const t = ctx.statement;
  if (t?.kind !== 'table' || t.head.range.end.line >= ctx.position.line) return undefined;
  const afterKey = /:\s*[{[]?\s*(?:[\w.%/]+\s*(?::\s*[\w.%/]+)?\s*,\s*)*$/.test(before) && before.includes(':');
  if (afterKey) {
    const target = t.head.targets[0] && index.variable(ctx.scope, t.head.targets[0].variable.text);
    return /\{[^}]*$/.test(before) ? target?.states : undefined;
  }
  const keyIndex = (before.match(/,/g) ?? []).length;
  // A continuous variable's rows are keyed by its discrete parents only (the ones with states).
  const keyed = isContinuousTable(index, ctx)
    ? t.head.conditions.filter((c) => index.variable(ctx.scope, c.variable.text)?.states?.length)
    : t.head.conditions;
  const parent = keyed[keyIndex];
  return parent ? index.variable(ctx.scope, parent.variable.text)?.states : undefined;
}

/** The table at the position gives a continuous (`real`) variable: its rows are `d: Normal(…)`. */
function isContinuousTable(index: NameIndex, ctx: PositionContext): boolean {
  const t = ctx.statement;
  if (t?.kind !== 'table' || !t.head.targets[0]) return false;
  const target = index.variable(ctx.scope, t.head.targets[0].variable.text);
  return target?.statement?.kind === 'variable' && target.statement.domain.type === 'real';
}

/**
 * In a continuous variable's table: after a row's keys, the regression `Normal(…)` with a
 * coefficient for each continuous parent; inside `Normal(`, its argument names.
 */
function regressionExpected(index: NameIndex, ctx: PositionContext, before: string): CompletionItem[] | undefined {
  const t = ctx.statement;
  if (t?.kind !== 'table' || t.head.range.end.line >= ctx.position.line || !isContinuousTable(index, ctx))
    return undefined;
  // In a network over time a coefficient is keyed by the parent with its slice: `Position[t-1]`.
  const continuous = t.head.conditions
    .filter((c) => !index.variable(ctx.scope, c.variable.text)?.states?.length)
    .map((c) => sliceKey(c));
  if (/\bNormal\s*\((?:[^)]*,)?\s*$/.test(before))
    return ['mean', 'variance', ...continuous].map((label) => ({
      label,
      kind: CompletionItemKind.Property,
      detail: label === 'mean' ? 'intercept' : label === 'variance' ? 'σ² > 0' : `coefficient of ${label}`,
      insertText: `${label}: `,
    }));
  if (!/:\s*$/.test(before)) return undefined;
  const args = ['mean: ${1:0}', ...continuous.map((name, i) => `${name}: \${${i + 2}:0}`)];
  args.push(`variance: \${${continuous.length + 2}:1}`);
  return [
    {
      label: 'Normal',
      kind: CompletionItemKind.Function,
      detail: 'the regression of this configuration of the discrete parents',
      insertText: `Normal(${args.join(', ')})`,
      insertTextFormat: InsertTextFormat.Snippet,
    },
  ];
}

/** The declaration snippets (snippets/bayes.json): only where a statement starts, never in a block. */
function snippets(): CompletionItem[] {
  return Object.values(SNIPPETS).map((s) => ({
    label: s.prefix,
    kind: CompletionItemKind.Snippet,
    detail: s.description,
    insertText: s.body.join('\n'),
    insertTextFormat: InsertTextFormat.Snippet,
  }));
}

/** Whether the text before the position ends inside a `//` comment or an open string. */
export function inCommentOrString(prefix: string): boolean {
  let quoted = false;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '/' && prefix[i + 1] === '/') return true;
  }
  return quoted;
}

/** The options of the method a learn line names (`by em {`), or of every method when it names none it knows. */
function learnOptions(head: string): readonly string[] {
  const method = /\bby\s+(\w+)\s*$/.exec(head)?.[1];
  return method && isLearnMethod(method) ? optionsOf(method) : LEARN_OPTIONS;
}

/**
 * Option names where a key goes in the options of a query, expect, learn or evaluate line:
 * `using gibbs { | }`, `{ seed: 1, | }`; not in soft evidence `X ~ { … }`, whose keys are states.
 */
function optionsExpected(ctx: PositionContext, before: string): readonly string[] | undefined {
  const m = /^(.*)\{(?:\s*\w+\s*:\s*[^,{}:]*,)*\s*$/.exec(before);
  if (!m || /(~|likelihood)\s*$/.test(m[1]!)) return undefined;
  const head = m[1]!;
  if (!/^\s*(query|expect|learn|evaluate)\b/.test(head)) return undefined;
  const used = new Set([...before.slice(head.length).matchAll(/(\w+)\s*:/g)].map((x) => x[1]!));
  const all = /\busing\s+\w+\s*$/.test(head)
    ? SAMPLER_OPTIONS
    : /^\s*learn\b/.test(head)
      ? learnOptions(head)
      : /\bfolds\s+\d+\s*$|^\s*(query|expect)\s+evaluate\b|^\s*evaluate\b/.test(head)
        ? ['seed', 'target']
        : /\blearning_curve\b/.test(head)
          ? ['sizes', 'seed']
          : ['seed', 'samples'];
  return all.filter((o) => !used.has(o));
}
